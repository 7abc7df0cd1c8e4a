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
 *   In the 1.34 shape (`modern`): the periodic one also on quiet watches (the revision moved on with
 *   other resources' writes, which the cache learns from etcd then: modern/06), twice before the
 *   deadline (2 and 1 server seconds before it), without `creationTimestamp: null`. A short quiet
 *   watch that no periodic bookmark reached gets none (1.34.9, test/real/wire-parity).
 * - With `initialEventsEnd` (WatchList, or an old-style watch a 1.34 server defaulted to it), the
 *   initial ADDED events end with a BOOKMARK annotated `k8s.io/initial-events-end: "true"` whose
 *   RV is the server's current one; in the 1.34 shape the initial burst is written in 2048-byte
 *   chunks, so one event can span two chunks (transcript modern/08).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault, KubeObjectJson, ResourceDefinition, WatchEventJson } from './types';
import type { HistoryEvent, ObjectStore } from './store';
import { eventFor, matches, type Predicate } from './predicate';
import { withTypeMeta } from './object-meta';
import { groupVersionOf, qualifiedName } from './resources';
import { baseHeaders } from './responses';
import { faultStatus, prevKvNil, watchTooOld, type StatusJson } from './status';

export interface WatchConfig {
  store: ObjectStore;
  def: ResourceDefinition;
  predicate: Predicate;
  /** The resourceVersion to watch from; undefined for "" / "0" / unset (synthetic ADDED first). */
  fromRv: number | undefined;
  /** With fromRv undefined: start at the current RV without any initial event (sendInitialEvents=false). */
  noInitialEvents?: boolean;
  /** End the initial events with the annotated initial-events-end BOOKMARK (needs allowBookmarks). */
  initialEventsEnd?: boolean;
  /** 1.34 wire shape: quiet-watch bookmarks, bookmark without creationTimestamp, 2048-byte initial chunks. */
  modern?: boolean;
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
  /** What an event carries instead of the object (a Table for `kubectl get -w`); `first` for the watch's first event. */
  asObject?: (object: KubeObjectJson, first: boolean) => Record<string, unknown>;
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
    const fault = cfg.fault;
    // Headers and the end in one write, as a server that closes at once sends them.
    if (fault?.type === 'closeImmediately') return this.end();
    res.flushHeaders();
    if (fault?.type === 'silent') return;
    this.deadline = Date.now() + cfg.timeoutMs;

    const store = cfg.store;
    const initial: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObjectJson }[] = [];
    if (cfg.fromRv === undefined && cfg.noInitialEvents) {
      this.startRv = store.rv;
    } else if (cfg.fromRv === undefined) {
      this.startRv = store.rv;
      const current = [...store.currentObjects(this.resource)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [, obj] of current) if (matches(cfg.predicate, obj)) initial.push({ type: 'ADDED', object: obj });
    } else if (cfg.fromRv < store.oldestRv && !this.startsAtCompactedRevision()) {
      this.writeError(watchTooOld(cfg.watchCache, cfg.fromRv, store.oldestRv));
      return this.end();
    } else if (cfg.fromRv < store.oldestRv) {
      // Without the watch cache, etcd serves a watch from just below the compacted revision: the
      // change at that revision comes without its previous value, which the apiserver cannot
      // accept for an update or a deletion (real 1.34.9: ERROR 500 "PrevKv=nil", modern/12).
      this.startRv = cfg.fromRv;
      const edge = store.compactedChange;
      if (edge && edge.resource === this.resource && (cfg.predicate.namespace === undefined || edge.object.metadata.namespace === cfg.predicate.namespace)) {
        if (edge.type !== 'ADDED') {
          this.writeError(prevKvNil(etcdKey(cfg.def, edge.key), edge.rv, edge.type === 'DELETED' ? 'DELETE' : 'PUT'));
          return this.end();
        }
        const ev = eventFor(cfg.predicate, edge);
        if (ev) initial.push(ev);
      }
      for (const e of store.eventsSince(this.resource, store.oldestRv)) {
        const ev = eventFor(cfg.predicate, e);
        if (ev) initial.push(ev);
      }
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
    const burst = cfg.modern && !cfg.fault ? (this.burst = []) : undefined;
    for (const ev of initial) {
      if (this.closed) return;
      this.sendEvent(ev.type, ev.object);
    }
    if (cfg.initialEventsEnd && cfg.allowBookmarks && !this.closed) {
      this.write({ type: 'BOOKMARK', object: this.bookmarkObject(store.rv, true) });
    }
    if (burst) {
      this.burst = undefined;
      // One event may span two chunks, as the real server's 2048-byte buffered writes do.
      const data = Buffer.from(burst.join(''));
      for (let i = 0; i < data.length; i += 2048) this.res.write(data.subarray(i, i + 2048));
    }
  }

  /** Without the watch cache, from exactly one below the compacted revision: etcd still serves it. */
  private startsAtCompactedRevision(): boolean {
    return !this.cfg.watchCache && this.cfg.fromRv === this.cfg.store.oldestRv - 1;
  }

  /** While set, writes are gathered to be sent as 2048-byte chunks. */
  private burst: string[] | undefined;

  private bookmarkObject(rv: number, initialEventsEnd: boolean): Record<string, unknown> {
    const { def } = this.cfg;
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    else if (!this.cfg.modern) metadata.creationTimestamp = null;
    return { kind: def.kind, apiVersion: groupVersionOf(def), metadata };
  }

  /** Holds back writes until `uncork()`, so that what is written meanwhile leaves in one chunk. */
  cork(): void {
    if (!this.closed) this.res.cork();
  }

  uncork(): void {
    this.res.uncork();
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
    if (this.burst) this.burst.push(`${line}\n`);
    else this.res.write(`${line}\n`);
  }

  private write(event: WatchEventJson): void {
    this.writeLine(JSON.stringify(event));
  }

  private writeError(status: StatusJson): void {
    this.write({ type: 'ERROR', object: status as unknown as Record<string, unknown> });
  }

  private sendEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObjectJson): void {
    if (this.closed) return;
    const typed = withTypeMeta(this.cfg.def, object);
    this.write({ type, object: this.cfg.asObject ? this.cfg.asObject(typed, this.sent === 0) : typed });
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
      this.sendBookmark(!isPreDeadline);
      // 1.34 sends a second one about a server second before the deadline (transcript modern/06).
      if (isPreDeadline && this.cfg.modern) this.addTimer(() => this.sendBookmark(false), this.cfg.timeScale);
      this.scheduleBookmark();
    }, next - now);
  }

  /**
   * A BOOKMARK, sent only once the RV moved past the watch's start. On 1.34 the periodic one
   * (`periodic`) comes at a revision above every object's: other resources' writes (the
   * apiservers' leases) reach the watch cache by a progress notification then (modern/06); the
   * ones before the deadline carry the cache's revision as it is, so a short quiet watch gets
   * none (1.34.9: a 3 s watch with no write anywhere, test/real/wire-parity).
   */
  private sendBookmark(periodic: boolean): void {
    if (this.cfg.modern && periodic) this.cfg.store.advance();
    const rv = this.cfg.store.rv;
    if (rv > this.startRv) this.write({ type: 'BOOKMARK', object: this.bookmarkObject(rv, false) });
  }
}

/** The etcd key of an object: `/registry/RESOURCE/KEY`, custom resources under their group (`/registry/GROUP/RESOURCE/KEY`). */
function etcdKey(def: ResourceDefinition, key: string): string {
  return def.group.includes('.') && !def.group.endsWith('.k8s.io') ? `/registry/${def.group}/${def.resource}/${key}` : `/registry/${def.resource}/${key}`;
}
