/** The lifecycle log, VS Code-free: formatting, redaction, and the writer that feeds a log sink. */
export * from './format-lifecycle-event';
export * from './lifecycle-log-writer';
export * from './log-line';
export * from './redact';
export * from './time-text';
export * from './recent-lines';
