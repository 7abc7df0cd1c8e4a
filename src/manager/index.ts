/** The watch manager's public surface: configuration in, informers and their states out. No `vscode` import. */
export * from './ad-hoc-watch';
export * from './kubeconfig-file-watcher';
export * from './object-origin';
export * from '../connection/transport/transport-factory';
export * from './watch-config';
export * from './watch-entry';
export * from './watch-manager';
export { CHECKING_ACCESS } from './slot-scoping';
export type { PermissionScope, ScopedNamespace } from './permission-scope';
export * from './origin-transport';
