export * from './log-choices';
export * from './log-terminal-text';
export * from './workload-log-text';
export * from './outage-line';
