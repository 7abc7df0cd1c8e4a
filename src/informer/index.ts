/** The engine's public surface. Nothing under src/informer imports `vscode`. */
export * from './api-error';
export * from './backoff';
export * from './clock';
export * from './disposable';
export * from './informer';
export * from './informer-state';
export * from './kube-object';
export * from './kubeconfig-transport';
export * from './lifecycle-event';
export * from './managed-fields';
export * from './resource-type';
export * from './sleep';
export * from './store';
export * from './streaming-list-memory';
export * from './watch-list';
export * from './transform';
export * from './transport';
