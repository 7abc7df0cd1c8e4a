/**
 * What every layer shares: time (clock, timers, sleep), disposables and the event emitter,
 * backoff, the one time format, and the errors a request can end with. Imports nothing from the project.
 */
export * from './api-error';
export * from './backoff';
export * from './clock';
export * from './disposable';
export * from './field-manager';
export * from './file-problem';
export * from './sleep';
export * from './time-format';
export * from './exact-json';
