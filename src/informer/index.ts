/**
 * The engine's public surface: informer, reflector, store, WatchList and the transport port.
 * It imports nothing but `src/base` and itself (checked by test/architecture/layers.test.ts), and
 * exports nothing from the layers above it: a transport implementation lives in `src/connection`.
 */
export * from './informer';
export * from './informer-state';
export * from './kube-object';
export * from './lifecycle-event';
export * from './list-preview';
export * from './list-progress';
export * from './resource-type';
export * from './store';
export * from './streaming-list-memory';
export * from './watch-list';
export * from './transform';
export * from './transport';
