export * from './events-messages';
export * from './events-view-model';
