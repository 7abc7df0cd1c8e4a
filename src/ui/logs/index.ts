export * from './log-choices';
export * from './log-terminal-text';
