import type { Clock, Disposable, TimerHandle } from '../base';

/**
 * When a document's dry run is made: only when its input (the document's text and the live
 * object's resourceVersion: its `fingerprint`) changed since the last one, after the input has
 * been still for `debounceMs` (typing), with at most `concurrency` running and at most
 * `concurrency` starts in any `spacingMs` (a workspace of 500 manifests opening does not storm
 * the API server: 500 dry runs take at least 500/8 x 5 ms, not 500 x 5 ms). A
 * newer input supersedes the running dry run of the same document: it is aborted.
 *
 * Invariants: at most one dry run per document runs at a time; a fingerprint that was run to the
 * end is never run again; after `dispose()` nothing starts and every running one is aborted.
 */

export interface DryRunSchedulerOptions {
  clock: Clock;
  debounceMs?: number;
  concurrency?: number;
  spacingMs?: number;
}

/** The work of one dry run: resolves when done (its result is handled by the caller). */
export type DryRunWork = (signal: AbortSignal) => Promise<void>;

interface Slot {
  fingerprint: string;
  work: DryRunWork;
  /** Debouncing until this timer fires. */
  timer?: TimerHandle;
  /** Queued (debounced and waiting for a free place). */
  queued: boolean;
  running?: { fingerprint: string; ctl: AbortController };
  /** The fingerprint last run to the end. */
  done?: string;
}

export class DryRunScheduler implements Disposable {
  private readonly slots = new Map<string, Slot>();
  private readonly queue: string[] = [];
  private running = 0;
  /** When the last `concurrency` dry runs started, oldest first. */
  private readonly recentStarts: number[] = [];
  private spacingTimer: TimerHandle | undefined;
  private disposed = false;
  /** How many dry runs were started, per key (for tests and the bench). */
  readonly started = new Map<string, number>();

  constructor(private readonly o: DryRunSchedulerOptions) {}

  /** Asks for the dry run of `key` at `fingerprint` (`now`: no debounce, a change on the cluster); does nothing when that fingerprint is done or pending. */
  request(key: string, fingerprint: string, work: DryRunWork, now = false): void {
    if (this.disposed) return;
    const slot = this.slots.get(key) ?? { fingerprint, work, queued: false };
    this.slots.set(key, slot);
    if (slot.done === fingerprint && !slot.running && !slot.timer && !slot.queued) return;
    if (slot.fingerprint === fingerprint && (slot.timer || slot.queued || slot.running?.fingerprint === fingerprint)) return;
    slot.fingerprint = fingerprint;
    slot.work = work;
    if (slot.running && slot.running.fingerprint !== fingerprint) slot.running.ctl.abort();
    slot.timer?.cancel();
    slot.timer = undefined;
    const debounce = now ? 0 : (this.o.debounceMs ?? 400);
    if (debounce === 0) this.enqueue(key);
    else slot.timer = this.o.clock.setTimer(() => {
      slot.timer = undefined;
      this.enqueue(key);
    }, debounce);
  }

  /** Forgets `key`: its pending dry run is dropped and a running one aborted. */
  forget(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    slot.timer?.cancel();
    slot.running?.ctl.abort();
    this.slots.delete(key);
  }

  /** Makes the next request of `key` run again even with the same fingerprint (a Refresh). */
  invalidate(key: string): void {
    const slot = this.slots.get(key);
    if (slot) slot.done = undefined;
  }

  /** Dry runs running or waiting (debounced or queued). */
  get pending(): number {
    let n = 0;
    for (const s of this.slots.values()) if (s.timer || s.queued || s.running) n++;
    return n;
  }

  dispose(): void {
    this.disposed = true;
    this.spacingTimer?.cancel();
    for (const key of [...this.slots.keys()]) this.forget(key);
    this.queue.length = 0;
  }

  private enqueue(key: string): void {
    const slot = this.slots.get(key);
    if (!slot || slot.queued) return;
    slot.queued = true;
    this.queue.push(key);
    this.pump();
  }

  private pump(): void {
    if (this.disposed || this.spacingTimer) return;
    const limit = this.o.concurrency ?? 8;
    const spacing = this.o.spacingMs ?? 5;
    while (this.queue.length > 0 && this.running < limit) {
      const key = this.queue[0];
      const slot = this.slots.get(key);
      if (!slot || !slot.queued) {
        this.queue.shift();
        continue;
      }
      // One at a time per document: a superseded run ends (aborted) before the next starts.
      if (slot.running) {
        this.queue.shift();
        this.queue.push(key);
        if (this.queue.every((k) => this.slots.get(k)?.running)) return;
        continue;
      }
      // At most `limit` starts in any `spacing` ms: a wave of `limit`, then the next after `spacing`.
      const wait = this.recentStarts.length < limit ? 0 : this.recentStarts[0] + spacing - this.o.clock.now();
      if (wait > 0) {
        this.spacingTimer = this.o.clock.setTimer(() => {
          this.spacingTimer = undefined;
          this.pump();
        }, wait);
        return;
      }
      this.queue.shift();
      slot.queued = false;
      this.start(key, slot);
    }
  }

  private start(key: string, slot: Slot): void {
    const ctl = new AbortController();
    const fingerprint = slot.fingerprint;
    slot.running = { fingerprint, ctl };
    this.running++;
    this.recentStarts.push(this.o.clock.now());
    if (this.recentStarts.length > (this.o.concurrency ?? 8)) this.recentStarts.shift();
    this.started.set(key, (this.started.get(key) ?? 0) + 1);
    const finish = () => {
      this.running--;
      if (slot.running?.ctl === ctl) slot.running = undefined;
      if (!ctl.signal.aborted) slot.done = fingerprint;
      this.pump();
    };
    slot.work(ctl.signal).then(finish, finish);
  }
}
