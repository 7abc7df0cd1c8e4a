import { Emitter, type Disposable } from '../base';
import type { ForwardSpec } from './forward-target';
import type { ForwardResources, ForwardStatus, PortForward } from './port-forward';

/** A forward as the set holds it: an id, the context it runs on, the forward. */
export interface ForwardEntry {
  readonly id: string;
  /** The configured context spec ('' = the current-context) whose connection it uses. */
  readonly context: string;
  /** The context's name, for labels. */
  readonly contextName: string;
  readonly forward: PortForward;
}

/** What is saved to restore a forward on the next start: what the user asked for, never a pod. */
export interface SavedForward {
  readonly context: string;
  readonly spec: ForwardSpec;
}

/** A change of the set: a forward added, changed (status) or removed; or an event line of one. */
export type ForwardSetChange = { readonly type: 'added' | 'changed' | 'removed'; readonly id: string } | { readonly type: 'event'; readonly id: string; readonly line: string };

/**
 * Every port-forward of the window. `start` resolves with the entry once the forward is bound,
 * or rejects with its one-line reason (then nothing of it is left). A forward stays in the set
 * until stopped. Invariant: after `stopAll` resolves, `resources` is all zeros.
 */
export class PortForwardSet implements Disposable {
  private readonly entries = new Map<string, ForwardEntry>();
  private readonly changes = new Emitter<ForwardSetChange>();
  private serial = 0;

  list(): ForwardEntry[] {
    return [...this.entries.values()];
  }

  get(id: string): ForwardEntry | undefined {
    return this.entries.get(id);
  }

  get size(): number {
    return this.entries.size;
  }

  onDidChange(listener: (change: ForwardSetChange) => void): Disposable {
    return this.changes.on(listener);
  }

  /** Starts `forward` and keeps it; rejects (with nothing left) when it cannot start. */
  async start(context: string, contextName: string, forward: PortForward): Promise<ForwardEntry> {
    await forward.start();
    const entry: ForwardEntry = { id: `pf-${++this.serial}`, context, contextName, forward };
    this.entries.set(entry.id, entry);
    forward.onDidChange(() => this.changes.fire({ type: 'changed', id: entry.id }));
    forward.onEvent((line) => this.changes.fire({ type: 'event', id: entry.id, line }));
    this.changes.fire({ type: 'added', id: entry.id });
    return entry;
  }

  async stop(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    await entry.forward.stop();
    this.changes.fire({ type: 'removed', id });
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.stop(id)));
  }

  /** What to save for the next start. */
  saved(): SavedForward[] {
    return this.list().map((e) => ({ context: e.context, spec: { ...e.forward.spec, localPort: e.forward.status.localPort || e.forward.spec.localPort } }));
  }

  /** Everything the forwards hold now, summed (the extension's test API). */
  get resources(): ForwardResources {
    const sum = { listeners: 0, streams: 0, sockets: 0, timers: 0, watches: 0 };
    for (const e of this.entries.values()) {
      const r = e.forward.resources;
      sum.listeners += r.listeners;
      sum.streams += r.streams;
      sum.sockets += r.sockets;
      sum.timers += r.timers;
      sum.watches += r.watches;
    }
    return sum;
  }

  statusOf(id: string): ForwardStatus | undefined {
    return this.entries.get(id)?.forward.status;
  }

  dispose(): void {
    void this.stopAll();
    this.changes.dispose();
  }
}
