/** The Inspect Resource Version report, VS Code-free. */
export * from './inspect-history';
export * from './inspect-report';
