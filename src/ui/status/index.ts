/** The status bar watch indicator, VS Code-free: entries and time in, what to show out. */
export * from './entry-health';
export * from './markdown-text';
export * from './row-state-text';
export * from './status-bar-model';
export * from './status-bar-state';
export * from './trouble-tracker';
export * from './status-bar-feed';
