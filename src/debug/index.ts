/** Ephemeral debug containers, as `kubectl debug -it POD --image=IMAGE --target=CONTAINER`: the container kubectl adds, its patch, waiting for it to run, and the attach to it. */
export * from './ephemeral-container';
export * from './debug-session';
