/** Cluster access around the engine: kubeconfig loading, discovery. Nothing here imports `vscode`. */
export * from './context-identity';
export * from './discovery';
export * from './kubeconfig-loader';
export * from './label-selector-text';
export * from './resolve-with-retry';
export * from './access-review';
