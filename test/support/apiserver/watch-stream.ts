/**
 * One open watch response, written like kube-apiserver 1.26 over HTTP/1.1 (transcripts 02, 16, 17):
 * 200 with headers flushed at once, chunked, one JSON event per chunk and line; at its deadline the
 * body just ends (terminating chunk, no final event); a resourceVersion older than the history gets
 * one ERROR event (Status 410 Expired) and the end, never an HTTP 410.
 *
 * Invariants:
 * - Replay and subscription happen in the same synchronous step, so no change is lost or doubled:
 *   every event sent has rv > the watch's start RV, in rv order.
 * - After `closed` is set nothing more is written, every timer is cleared and the store
 *   subscription is gone; `onClosed` runs exactly once.
 * - BOOKMARKs (allowWatchBookmarks, watch cache only) come every bookmark interval and once about
 *   2 server seconds before the deadline, and only while the global RV is newer than the start RV.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault, KubeObjectJson, ResourceDefinition, WatchEventJson } from './types';
import type { HistoryEvent, ObjectStore } from './store';
import { eventFor, matches, type Predicate } from './predicate';
import { withTypeMeta } from './object-meta';
import { groupVersionOf, qualifiedName } from './resources';
import { baseHeaders } from './responses';
import { faultStatus, watchTooOld, type StatusJson } from './status';

export interface WatchConfig {
  store: ObjectStore;
  def: ResourceDefinition;
  predicate: Predicate;
  /** The resourceVersion to watch from; undefined for "" / "0" / unset (synthetic ADDED first). */
  fromRv: number | undefined;
  allowBookmarks: boolean;
  watchCache: boolean;
  /** When the response ends by itself, in ms from now. */
  timeoutMs: number;
  /** Length of a server second in ms (the pre-deadline bookmark is 2 of them before the deadline). */
  timeScale: number;
  bookmarkIntervalMs: number;
  fault?: Fault;
  /** Sends an RST on the request's connection. */
  resetConnection: () => void;
  /** Closes the request's TCP connection without an RST. */
  destroyConnection: () => void;
  onClosed: (w: WatchStream) => void;
}

export class WatchStream {
  readonly resource: string;
  private closed = false;
  private sent = 0;
  private malformedDone = false;
  private preDeadlineBookmarkDone = false;
  private startRv = 0;
  private deadline = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    _req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly cfg: WatchConfig,
  ) {
    this.resource = qualifiedName(cfg.def);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes the headers and the initial events, then follows the store. */
  start(): void {
    const { cfg, res } = this;
    res.on('close', () => this.finish());
    res.writeHead(200, baseHeaders('application/json'));
    res.flushHeaders();
    const fault = cfg.fault;
    if (fault?.type === 'silent') return;
    if (fault?.type === 'closeImmediately') return this.end();
    this.deadline = Date.now() + cfg.timeoutMs;

    const store = cfg.store;
    const initial: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObjectJson }[] = [];
    if (cfg.fromRv === undefined) {
      this.startRv = store.rv;
      const current = [...store.currentObjects(this.resource)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [, obj] of current) if (matches(cfg.predicate, obj)) initial.push({ type: 'ADDED', object: obj });
    } else if (cfg.fromRv < store.oldestRv) {
      this.writeError(watchTooOld(cfg.watchCache, cfg.fromRv, store.oldestRv));
      return this.end();
    } else {
      this.startRv = cfg.fromRv;
      for (const e of store.eventsSince(this.resource, cfg.fromRv)) {
        const ev = eventFor(cfg.predicate, e);
        if (ev) initial.push(ev);
      }
    }
    this.unsubscribe = store.subscribe((e) => this.onChange(e));
    this.addTimer(() => this.end(), cfg.timeoutMs);
    if (cfg.watchCache && cfg.allowBookmarks) this.scheduleBookmark();

    this.afterEvent();
    for (const ev of initial) {
      if (this.closed) return;
      this.sendEvent(ev.type, ev.object);
    }
  }

  /** Ends the response cleanly (terminating chunk); the connection stays open for keep-alive. */
  end(): void {
    if (this.closed) return;
    this.finish();
    this.res.end();
  }

  /** Sends an RST on the connection. */
  reset(): void {
    if (this.closed) return;
    this.finish();
    this.cfg.resetConnection();
  }

  /** Destroys the response's socket without an RST. */
  destroy(): void {
    if (this.closed) return;
    this.finish();
    this.res.destroy();
    this.cfg.destroyConnection();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.cfg.onClosed(this);
  }

  private addTimer(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, Math.max(0, ms));
    t.unref();
    this.timers.add(t);
  }

  private onChange(e: HistoryEvent): void {
    if (this.closed || e.resource !== this.resource || e.rv <= this.startRv) return;
    const ev = eventFor(this.cfg.predicate, e);
    if (ev) this.sendEvent(ev.type, ev.object);
  }

  private writeLine(line: string): void {
    this.res.write(`${line}\n`);
  }

  private write(event: WatchEventJson): void {
    this.writeLine(JSON.stringify(event));
  }

  private writeError(status: StatusJson): void {
    this.write({ type: 'ERROR', object: status as unknown as Record<string, unknown> });
  }

  private sendEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObjectJson): void {
    if (this.closed) return;
    this.write({ type, object: withTypeMeta(this.cfg.def, object) });
    this.sent++;
    this.afterEvent();
  }

  /** Applies a fault whose event count has been reached. */
  private afterEvent(): void {
    const f = this.cfg.fault;
    if (!f || this.closed) return;
    if (f.type === 'malformed' && !this.malformedDone && this.sent >= (f.afterEvents ?? 0)) {
      this.malformedDone = true;
      this.writeLine(f.line);
    } else if (f.type === 'errorEvent' && this.sent >= (f.afterEvents ?? 0)) {
      this.writeError(faultStatus(f.code, f.reason, f.message, f.retryAfterSeconds));
      this.end();
    } else if (f.type === 'reset' && this.sent >= (f.afterEvents ?? 0)) {
      // Let the bytes already written leave before the RST.
      this.finish();
      setImmediate(() => this.cfg.resetConnection());
    }
  }

  private scheduleBookmark(): void {
    if (this.preDeadlineBookmarkDone) return;
    const now = Date.now();
    let next = now + this.cfg.bookmarkIntervalMs;
    const preDeadline = this.deadline - 2 * this.cfg.timeScale;
    const isPreDeadline = preDeadline <= next;
    if (isPreDeadline) next = preDeadline;
    if (next < now) return;
    this.addTimer(() => {
      if (isPreDeadline) this.preDeadlineBookmarkDone = true;
      const rv = this.cfg.store.rv;
      if (rv > this.startRv) {
        const { def } = this.cfg;
        this.write({
          type: 'BOOKMARK',
          object: { kind: def.kind, apiVersion: groupVersionOf(def), metadata: { resourceVersion: String(rv), creationTimestamp: null } },
        });
      }
      this.scheduleBookmark();
    }, next - now);
  }
}
