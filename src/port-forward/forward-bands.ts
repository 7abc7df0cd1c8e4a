import { Emitter, type Disposable } from '../base';
import { emptyStats, type InformerState, type TimedLifecycleEvent } from '../informer';
import type { EntriesChange, EntryHandler, WatchEntry } from '../manager';
import type { ForwardStatus } from './port-forward';
import type { PortForwardSet } from './port-forward-set';

/** What the Watch Health recorder observes (a WatchManager is one). */
export interface BandSource {
  entries(): WatchEntry[];
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
  onLifecycle(listener: (entryId: string, event: TimedLifecycleEvent) => void): Disposable;
  addHandler(handler: EntryHandler): Disposable;
}

/** The id of a forward's band: never one of the manager's entry ids. */
export const forwardBandId = (forwardId: string): string => `port-forward:${forwardId}`;

/** A forward's phase as a band state: ready is live, failing and waiting back off (amber), reconnecting is unreachable. */
export function bandStateOf(status: ForwardStatus): InformerState {
  const base = { since: status.since, synced: status.phase !== 'starting' };
  switch (status.phase) {
    case 'ready':
      return { ...base, phase: 'watching', reason: status.pod ? `pod ${status.pod}` : undefined };
    case 'failing':
      return { ...base, phase: 'backing-off', reason: status.reason };
    case 'waiting':
      return { ...base, phase: 'backing-off', reason: status.reason };
    case 'reconnecting':
      return { ...base, phase: 'unreachable', reason: status.reason };
    case 'starting':
      return { ...base, phase: 'connecting' };
    default:
      return { ...base, phase: 'stopped', reason: 'the forward stopped' };
  }
}

/**
 * The manager's watches plus one band per port-forward, for the Watch Health panel: a forward
 * reads as an entry whose state is its phase (ready, waiting for a pod, reconnecting, stopped),
 * with its pod switches and refusals as its event rate. Everything else is the manager's.
 */
export function withForwardBands(manager: BandSource, forwards: PortForwardSet): BandSource & Disposable {
  const changes = new Emitter<EntriesChange>();
  const handlers = new Set<EntryHandler>();
  const sub = forwards.onDidChange((c) => {
    const id = forwardBandId(c.id);
    if (c.type === 'added') changes.fire({ added: [id], removed: [], changed: [] });
    else if (c.type === 'removed') changes.fire({ added: [], removed: [id], changed: [] });
    else if (c.type === 'changed') changes.fire({ added: [], removed: [], changed: [id] });
    // An event line (a pod switch, a refused connection) counts in the band's rate; the recorder reads only the id.
    else for (const h of handlers) h.onUpdate?.(id, {} as never, {} as never);
  });
  const entryOf = (id: string): WatchEntry | undefined => {
    const e = forwards.get(id);
    if (!e) return undefined;
    const s = e.forward.status;
    return {
      id: forwardBandId(id),
      context: e.contextName,
      resource: 'port-forward',
      namespace: e.forward.spec.namespace,
      state: bandStateOf(s),
      stats: { ...emptyStats(), events: s.served + s.interrupted + s.refused + s.failed },
      label: `port-forward ${e.forward.label} → ${s.localAddress}:${s.localPort}`,
    };
  };
  return {
    entries: () => [...manager.entries(), ...forwards.list().map((e) => entryOf(e.id)!).filter(Boolean)],
    onDidChangeEntries: (listener) => {
      const a = manager.onDidChangeEntries(listener);
      const b = changes.on(listener);
      return { dispose: () => (a.dispose(), b.dispose()) };
    },
    onLifecycle: (listener) => manager.onLifecycle(listener),
    addHandler: (handler) => {
      const a = manager.addHandler(handler);
      handlers.add(handler);
      return { dispose: () => (a.dispose(), handlers.delete(handler)) };
    },
    dispose: () => {
      sub.dispose();
      changes.dispose();
      handlers.clear();
    },
  };
}
