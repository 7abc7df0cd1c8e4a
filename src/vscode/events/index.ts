export * from './events-commands';
export * from './events-panel';
