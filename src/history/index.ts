/** Per-object change history: bounded version store, change summaries, recording from the watch manager. No `vscode` import. */
export * from './arrival';
export * from './change-summary';
export * from './history-items';
export * from './history-recorder';
export * from './history-settings';
export * from './history-store';
export * from './noise-fields';
export * from './object-history';
export * from './reverse-patch';
