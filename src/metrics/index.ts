/** CPU and memory from metrics.k8s.io (issue 30, item 3), fetched only for what is shown. No `vscode` import. */
export * from './quantity';
export * from './usage-math';
export * from './metrics-wire';
export * from './metrics-availability';
export * from './cluster-metrics';
export * from './metrics-hub';
export * from './usage-reading';
export * from './usage-words';
export * from './usage-section';
export * from './format-age';
