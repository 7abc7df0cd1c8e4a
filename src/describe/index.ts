/** kubectl describe for the editor: pure functions from objects and events to text and links. No `vscode` import. */
export * from './describe-object';
export * from './describe-writer';
export * from './events-section';
export * from './live-description';
export * from './describers';
export * from './related-objects';
export * from './endpoints-format';
export * from './object-events-watch';
export * from './service-endpoints-watch';
