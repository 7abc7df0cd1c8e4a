/** The Watch Health panel's view model, VS Code-free: snapshots, their throttled feed, the Markdown summary. */
export * from './health-feed';
export * from './health-markdown';
export * from './health-messages';
export * from './health-state-style';
export * from './health-view-model';
export * from './marker-line';
