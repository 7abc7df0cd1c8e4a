/** The Watched Resources tree's view model. VS Code-free: no `vscode` import under src/ui. */
export * from './node-presentation';
export * from './tone';
export * from './tree-node';
export * from './watch-tooltip';
export * from './watch-tree-model';
export * from './view-scope';
export * from './expansion-memory';
export * from './row-decorator';
export * from './view-nodes';
export * from './node-filter';
export * from './resources-tree';
export * from './drawn-rows';
