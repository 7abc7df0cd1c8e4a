/** Port-forwards that follow their pods: the target's resolution, the choice of pod, the local listener and the relays. */
export * from './forward-target';
export * from './ready-pods';
export * from './port-forward';
export { bindLocal } from './local-listener';
export * from './port-forward-set';
export * from './forward-bands';
export * from './restore-forwards';
export { localAddressOf } from './local-address';
