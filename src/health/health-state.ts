import type { InformerPhase, InformerState } from '../informer';

/**
 * The state a watch's timeline band shows: the engine's phases, split where the tree names them
 * differently (a stop by a pause is "paused"; connecting again after a sync is "reconnecting"),
 * "suspended" for time the process could not see (the machine slept, the process was stopped), and
 * "catching-up" for a watch that watches again after a resume but has not yet shown it is current.
 */
export type HealthState = InformerPhase | 'reconnecting' | 'paused' | 'suspended' | 'catching-up';

/** Every band state, calm ones first; the order of the webview's legend. */
export const HEALTH_STATES: readonly HealthState[] = ['watching', 'catching-up', 'connecting', 'listing', 'reconnecting', 'backing-off', 'unreachable', 'unauthorized', 'credentials-failed', 'forbidden', 'not-found', 'suspended', 'paused', 'stopped'];

/** The band state of an informer (or resolution) state. Pure. */
export function healthStateOf(state: InformerState): HealthState {
  switch (state.phase) {
    case 'connecting':
      return state.synced ? 'reconnecting' : 'connecting';
    case 'stopped':
      return state.reason && /paus/i.test(state.reason) ? 'paused' : 'stopped';
    default:
      return state.phase;
  }
}

/** States in which the watch is not delivering changes because something went wrong. */
export function isTroubleState(state: HealthState): boolean {
  return state === 'reconnecting' || state === 'backing-off' || state === 'unreachable' || state === 'unauthorized' || state === 'credentials-failed' || state === 'forbidden' || state === 'not-found';
}
