/** The cluster overview's view model (issue 30, item 4). No `vscode` import. */
export * from './overview-messages';
export * from './overview-model';
