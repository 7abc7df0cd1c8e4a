/** A shell or a command in a container over exec: bash then sh, TTY and resize, and what became of the pod when a session drops. */
export * from './shell-session';
