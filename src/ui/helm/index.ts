export * from './release-rows';
