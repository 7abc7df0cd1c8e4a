export * from './helm-command';
export * from './release-codec';
export * from './release-details';
export * from './release-list';
export * from './release-record';
export * from './stuck-release';
export * from './manifest-types';
