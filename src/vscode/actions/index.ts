export * from './action-commands';
