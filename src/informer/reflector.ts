import { AbortedError, ApiError, ProtocolError, TransportError, describeError } from '../base/api-error';
import { Backoff } from '../base/backoff';
import type { Clock, TimerHandle } from '../base/clock';
import type { InformerPhase, InformerStats } from './informer-state';
import { isKubeObject, type KubeObject } from './kube-object';
import type { LifecycleEvent } from './lifecycle-event';
import { collectionPath, groupVersion, type ResourceType } from './resource-type';
import { sleep } from '../base/sleep';
import type { Store } from './store';
import { dropManagedFields, type Transform } from './transform';
import type { KubeTransport, ParseHints } from './transport';
import type { StreamingListMemory, StreamingListMode } from './streaming-list-memory';
import {
  InitialEvents,
  StreamingListIncompleteError,
  StreamingListUnsupportedError,
  isInitialEventsEnd,
  refusesStreamingList,
  watchListQuery,
} from './watch-list';

/** What a reflector needs from the informer that owns it. */
export interface ReflectorHost {
  readonly store: Store;
  readonly stats: InformerStats;
  setPhase(phase: InformerPhase, reason?: string, nextRetryAt?: number): void;
  markSynced(resourceVersion: string): void;
  emit(event: LifecycleEvent): void;
}

export interface ReflectorOptions {
  transport: KubeTransport;
  type: ResourceType;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Items per list page; 0 disables pagination. */
  pageSize: number;
  /** Fixed watch timeoutSeconds; when undefined it is drawn from [min, 2·min) for every watch. */
  timeoutSeconds?: number;
  minWatchTimeoutSeconds: number;
  /** How far past the watch's timeoutSeconds a silent stream is considered half-open. */
  noDataGraceMs: number;
  /** Deadline for a list page or for a watch's response headers. */
  requestTimeoutMs: number;
  /** Upper bound on a server's Retry-After. */
  maxRetryAfterMs: number;
  transform: Transform;
  clock: Clock;
  backoff: Backoff;
  /** How the list is made: streaming (WatchList) with fallback, streaming only, or paginated LIST only. */
  streamingList: StreamingListMode;
  /** The cluster's memory of group/versions without the streaming list (shared by its informers). */
  streamingListMemory: StreamingListMemory;
  /** Time without any event before the initial-events-end bookmark after which the streaming list is given up. */
  watchListProgressMs: number;
}

/** Why a loop iteration ended, and what to do next. */
interface Decision {
  relist: boolean;
  relistReason?: string;
  /** 'backoff' = the jittered backoff; 'slow' = at the cap; a number = at least that long. */
  wait: 'none' | 'backoff' | 'slow' | number;
  phase: InformerPhase;
  reason: string;
}

const NETWORK_UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ECREDENTIALS',
  'EPROTO',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Retries at once in a row after which the next one backs off instead. */
const TIGHT_LOOP_GUARD = 3;

/** An empty watch that the server closes sooner than this is a failure, as in client-go (F20). */
const SHORT_WATCH_MS = 1000;

/**
 * How a watch ended cleanly: at (or near) its timeout or with events in it; early and empty;
 * or at once and empty (a failure).
 */
type WatchOutcome = 'timeout' | 'early' | 'short';

/**
 * The list/watch state machine for one informer. It owns the resourceVersion:
 * - after a complete list, the list's resourceVersion;
 * - while watching, the resourceVersion of the last event or bookmark delivered.
 * A watch always resumes from that resourceVersion; only expiry (410), a persistent
 * too-large resourceVersion, repeated errors or a failed short watch lead to a relist.
 * A list is published to the store only when its last page has arrived.
 */
export class Reflector {
  private resourceVersion = '';
  /** A complete list is needed before the next watch (cleared when one is published). */
  private needList = true;
  private relistReason: string | undefined;
  /** The last resourceVersion is expired or too large: the next streaming list starts from scratch (''). */
  private resourceVersionUnavailable = false;
  /** Whether the current loop iteration's watch got its response headers (it was open). */
  private watchOpened = false;
  /** With the default transform, the transport need not build managedFields at all. */
  private readonly hints: ParseHints | undefined;
  /** Whether the last attempt (list or watch) failed; survives a restart. */
  private lastAttemptFailed = false;
  /** When the backoff after the last failure ends (clock ms); survives a restart. */
  private retryAt = 0;
  /**
   * Whether a restart already skipped the backoff wait since the last attempt that waited it
   * out: a restart retries at once only once, so repeated restarts do not burst lists at a
   * failing server.
   */
  private restartSkippedWait = false;
  /** Whether the current loop iteration's watch failed with a transport error right after opening. */
  private watchFailedAtOnce = false;

  constructor(
    private readonly host: ReflectorHost,
    private readonly o: ReflectorOptions,
  ) {
    this.hints = o.transform === dropManagedFields ? { dropManagedFields: true } : undefined;
  }

  get lastResourceVersion(): string {
    return this.resourceVersion;
  }

  /** Runs until `signal` fires. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    this.needList = true;
    this.relistReason = undefined;
    let consecutiveFailures = 0;
    let lastErrorKey = '';
    let sameErrorCount = 0;
    let retriesAtOnce = 0;
    if (!this.lastAttemptFailed) {
      this.o.backoff.reset(); // a (re)start after health is a fresh beginning: attempts count from 1 again
    } else if (this.restartSkippedWait && this.retryAt > this.o.clock.now()) {
      // A second restart while the server keeps failing waits out the backoff the first one skipped.
      const reason = 'restarted while failing: waiting out the backoff';
      this.host.setPhase('backing-off', reason, this.retryAt);
      try {
        await sleep(this.o.clock, this.retryAt - this.o.clock.now(), signal);
      } catch {
        return;
      }
      this.restartSkippedWait = false;
    } else {
      this.restartSkippedWait = true; // the backoff is kept: a failure now waits longer
    }
    this.host.setPhase('connecting');
    while (!signal.aborted) {
      this.watchOpened = false;
      this.watchFailedAtOnce = false;
      try {
        let outcome: WatchOutcome;
        if (this.needList && this.streams()) {
          // One request lists and then watches; it publishes the list at its bookmark.
          outcome = await this.watchOnce(signal, true);
        } else {
          if (this.needList) await this.listAll(signal, this.relistReason);
          outcome = await this.watchOnce(signal, false);
        }
        if (outcome === 'short') throw new ShortWatchError();
        this.lastAttemptFailed = false;
        consecutiveFailures = 0;
        retriesAtOnce = 0;
        lastErrorKey = '';
        sameErrorCount = 0;
        if (outcome === 'early') {
          // Ended cleanly but long before its timeout, with nothing in it: a server shutting
          // down or a proxy recycling connections, likely for every watch at once. Not a failure;
          // re-watch from the same resourceVersion after a short spread so they do not stampede.
          const delayMs = this.o.backoff.spreadDelay();
          const retryAt = this.o.clock.now() + delayMs;
          this.host.setPhase('connecting', 'the server ended the watch early', retryAt);
          try {
            await sleep(this.o.clock, delayMs, signal);
          } catch {
            break;
          }
        }
        continue; // F04: a watch that reached its timeout is re-opened at once
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof StreamingListUnsupportedError && this.o.streamingList === 'auto') {
          // F33/F34: remembered for the cluster's group/version; the paginated LIST at once.
          this.o.streamingListMemory.remember(groupVersion(this.o.type), err.why);
          this.host.emit({ type: 'streaming-list-fallback', reason: err.why });
          continue;
        }
        const decision = this.decide(err);
        // An open watch lost after a healthy run: likely every watch of the cluster at once (B4).
        const spread = consecutiveFailures === 0 && this.watchOpened;
        consecutiveFailures++;
        this.lastAttemptFailed = true;
        const key = errorKey(err) + (this.watchFailedAtOnce ? ':at-once' : '');
        sameErrorCount = key === lastErrorKey ? sameErrorCount + 1 : 1;
        lastErrorKey = key;
        if (!decision.relist && sameErrorCount >= 2 && (repeatsLeadToRelist(err) || this.watchFailedAtOnce)) {
          decision.relist = true;
          decision.relistReason = `the same error repeated: ${decision.reason}`;
        }
        if (decision.relist) {
          this.needList = true;
          this.relistReason = decision.relistReason ?? decision.reason;
        }
        let wait = decision.wait;
        // Retrying at once (expiry, a bad line) is right once or twice, never as a loop.
        if (wait === 'none' && ++retriesAtOnce >= TIGHT_LOOP_GUARD) wait = 'backoff';
        if (wait === 'none') continue; // listAll or the next watch sets the phase
        retriesAtOnce = 0;
        const { delayMs, attempt } = this.delayFor(wait, spread);
        const retryAt = this.o.clock.now() + delayMs;
        this.retryAt = retryAt;
        this.host.setPhase(decision.phase, decision.reason, retryAt);
        this.host.emit({ type: 'backoff', attempt, delayMs: Math.round(delayMs), cause: decision.reason, retryAt });
        try {
          // The cluster answering again (to any informer) ends the wait early, within 1 s.
          await sleep(this.o.clock, delayMs, signal, this.o.transport.onReachable?.bind(this.o.transport));
        } catch {
          break;
        }
        this.restartSkippedWait = false;
      }
    }
  }

  /** Whether the next list is a streaming list (WatchList). */
  private streams(): boolean {
    switch (this.o.streamingList) {
      case 'never':
        return false;
      case 'always':
        return true;
      case 'auto':
        return this.o.streamingListMemory.refusal(groupVersion(this.o.type)) === undefined;
    }
  }

  private delayFor(wait: 'backoff' | 'slow' | number, spread: boolean): { delayMs: number; attempt: number } {
    if (wait === 'slow') return this.o.backoff.slow();
    if (wait === 'backoff' && spread) return this.o.backoff.spread();
    const b = this.o.backoff.next();
    if (wait === 'backoff') return b;
    return { delayMs: Math.max(b.delayMs, Math.min(wait, this.o.maxRetryAfterMs)), attempt: b.attempt };
  }

  /** Maps a failure to what happens next. Pure except for counting stats and logging. */
  private decide(err: unknown): Decision {
    const stats = this.host.stats;
    if (err instanceof StreamingListUnsupportedError) {
      // Only with streamingList 'always': no fallback, the state says why.
      stats.errors++;
      return { relist: true, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    if (err instanceof StreamingListIncompleteError) {
      stats.errors++;
      return { relist: true, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    if (err instanceof ShortWatchError) {
      stats.errors++;
      // One early close may be a server shutting down gracefully; a repeat relists (F20).
      return { relist: false, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    if (err instanceof ApiError) {
      stats.errors++;
      this.o.streamingListMemory.connectionSucceeded(); // the server answered
      const msg = describeError(err);
      if (err.isExpired) {
        stats.expiries++;
        this.resourceVersionUnavailable = true;
        this.host.emit({ type: 'expired', resourceVersion: this.resourceVersion || undefined, message: err.message });
        return { relist: true, relistReason: 'expired', wait: 'none', phase: 'listing', reason: `expired: ${err.message}` };
      }
      if (err.isResourceVersionTooLarge) {
        // A streaming list cannot wait for a resourceVersion the server does not have: start from scratch.
        if (this.needList) this.resourceVersionUnavailable = true;
        // F13: wait as advised and retry from the same resourceVersion; a repeat relists.
        return { relist: false, wait: err.retryAfterMs ?? 'backoff', phase: 'backing-off', reason: msg };
      }
      switch (err.code) {
        case 401:
          return { relist: true, wait: 'slow', phase: 'unauthorized', reason: err.message };
        case 403:
          return { relist: true, wait: 'slow', phase: 'forbidden', reason: err.message };
        case 404:
          // F40: the cache is kept (client-go never touches the store on an error). Only discovery
          // tells a transient 404 from a version that moved (F39) or a type gone (F30): the owner asks it.
          return { relist: true, wait: 'slow', phase: 'not-found', reason: err.message };
        case 400:
        case 422:
          return { relist: true, wait: 'slow', phase: 'backing-off', reason: `the server rejected the request: ${err.message}` };
      }
      if (err.retryAfterMs !== undefined) return { relist: false, wait: err.retryAfterMs, phase: 'backing-off', reason: msg };
      return { relist: false, wait: 'backoff', phase: 'backing-off', reason: msg };
    }
    if (err instanceof ProtocolError) {
      stats.errors++;
      this.host.emit({ type: 'warning', message: err.message, eventType: err.eventType });
      return { relist: false, wait: 'none', phase: 'connecting', reason: err.message };
    }
    if (err instanceof TransportError) {
      stats.errors++;
      const unreachable = err.code !== undefined && NETWORK_UNREACHABLE.has(err.code);
      if (unreachable) this.o.streamingListMemory.connectionFailed();
      return { relist: false, wait: 'backoff', phase: unreachable ? 'unreachable' : 'backing-off', reason: err.message };
    }
    if (err instanceof DeadlineError) {
      stats.errors++;
      return { relist: false, wait: 'backoff', phase: 'backing-off', reason: err.message };
    }
    stats.errors++;
    const reason = err instanceof AbortedError ? err.message : describeError(err);
    this.host.emit({ type: 'warning', message: `unexpected failure: ${reason}` });
    return { relist: true, wait: 'backoff', phase: 'backing-off', reason };
  }

  private query(extra: Record<string, string>): Record<string, string> {
    const q: Record<string, string> = {};
    if (this.o.labelSelector) q.labelSelector = this.o.labelSelector;
    if (this.o.fieldSelector) q.fieldSelector = this.o.fieldSelector;
    return Object.assign(q, extra);
  }

  private get path(): string {
    return collectionPath(this.o.type, this.o.namespace);
  }

  /**
   * A consistent, paginated list (resourceVersion unset: never "0", which may travel back in time
   * on a lagging cache). A continue token that expires mid-list (F11, F37) falls back to one full
   * unpaginated list, as client-go's pager does; nothing reaches the store until the list is complete.
   */
  private async listAll(signal: AbortSignal, relistReason: string | undefined): Promise<void> {
    const relist = this.beginList(relistReason, false);
    const started = this.o.clock.now();
    let paginate = this.o.pageSize > 0;
    for (;;) {
      const items: KubeObject[] = [];
      let cont = '';
      let pages = 0;
      let listRv = '';
      try {
        do {
          const q = this.query(paginate ? { limit: String(this.o.pageSize) } : {});
          if (cont) q.continue = cont;
          const streamed: unknown[] = [];
          const listStream = paginate ? undefined : this.o.transport.listStream?.bind(this.o.transport);
          // Unpaginated: items parsed one by one as they arrive, never the whole body as one text.
          const page = await this.withDeadline(
            signal,
            (s) => (listStream ? listStream(this.path, q, s, (item) => streamed.push(item), this.hints) : this.o.transport.list(this.path, q, s, this.hints)),
            'list page',
          );
          this.o.streamingListMemory.connectionSucceeded();
          pages++;
          if (listStream && page && typeof page === 'object' && Array.isArray(page.items) && page.items.length === 0) page.items = streamed;
          if (!page || typeof page !== 'object' || !Array.isArray(page.items) || typeof page.metadata?.resourceVersion !== 'string') {
            throw new ProtocolError('the server answered the list with something that is not a list');
          }
          listRv = page.metadata.resourceVersion;
          this.collect(page.items, page.kind, page.apiVersion, items);
          this.host.emit({ type: 'list-page', page: pages, items: page.items.length });
          cont = page.metadata.continue ?? '';
        } while (cont);
      } catch (err) {
        if (err instanceof ApiError && err.isExpired && cont && paginate) {
          // client-go's pager: the rest of a paginated list is gone; one full list instead, not a loop.
          paginate = false;
          this.host.emit({ type: 'list-restarted', reason: `continue token expired on page ${pages + 1}: ${err.message}; listing everything in one request` });
          continue;
        }
        throw err;
      }
      if (signal.aborted) throw new AbortedError('stopped');
      this.publishList(items, listRv, relist, pages, started, false);
      return;
    }
  }

  /** Logs the start of a list (paginated or streaming); returns whether it is a relist. */
  private beginList(relistReason: string | undefined, streaming: boolean): boolean {
    const relist = relistReason !== undefined || this.host.stats.lists > 0;
    if (relistReason !== undefined) this.host.emit({ type: 'relist', reason: relistReason });
    this.host.setPhase('listing', relistReason);
    this.host.emit({ type: 'list-started', relist, resourceVersion: this.resourceVersion || undefined, ...(streaming ? { streaming } : {}) });
    return relist;
  }

  /** A complete list becomes the store's content; its resourceVersion is the one to watch from. */
  private publishList(items: KubeObject[], listRv: string, relist: boolean, pages: number, started: number, streaming: boolean): void {
    const stats = this.host.stats;
    if (relist) stats.relists++;
    stats.lists++;
    this.lastAttemptFailed = false;
    this.host.store.replace(items);
    this.setResourceVersion(listRv, 'list');
    this.needList = false;
    this.relistReason = undefined;
    this.resourceVersionUnavailable = false;
    this.host.emit({
      type: 'list-done',
      items: items.length,
      pages,
      resourceVersion: listRv,
      durationMs: this.o.clock.now() - started,
      ...(streaming ? { streaming } : {}),
    });
    this.host.markSynced(listRv);
  }

  /** Validates and transforms list items into `out`, giving them the kind the list implies. */
  private collect(raw: unknown[], listKind: string | undefined, apiVersion: string | undefined, out: KubeObject[]): void {
    const kind = listKind?.endsWith('List') ? listKind.slice(0, -4) : this.o.type.kind;
    const av = apiVersion ?? groupVersion(this.o.type);
    let skipped = 0;
    for (const item of raw) {
      if (!isKubeObject(item)) {
        skipped++;
        continue;
      }
      if (item.kind === undefined) item.kind = kind;
      if (item.apiVersion === undefined) item.apiVersion = av;
      out.push(this.o.transform(item));
    }
    if (skipped > 0) this.host.emit({ type: 'warning', message: `skipped ${skipped} list item(s) without a name or resourceVersion` });
  }

  private setResourceVersion(rv: string, source: 'list' | 'event' | 'bookmark'): void {
    this.resourceVersion = rv;
    const stats = this.host.stats;
    stats.resourceVersion = rv;
    stats.resourceVersionSource = source;
    stats.resourceVersionAt = this.o.clock.now();
  }

  private watchTimeoutSeconds(): number {
    if (this.o.timeoutSeconds !== undefined) return this.o.timeoutSeconds;
    const min = this.o.minWatchTimeoutSeconds;
    return Math.floor(min * (1 + this.o.clock.random()));
  }

  /**
   * One watch from the current resourceVersion, or (`streaming`) a streaming list that goes on as
   * the watch: its objects are gathered apart and published at the initial-events-end bookmark,
   * never before (F32, F35). Resolves with how the watch ended cleanly; throws for everything
   * else that went wrong. ERROR events become ApiErrors; a server that cannot stream the list
   * gives a StreamingListUnsupportedError (F33, F34).
   */
  private async watchOnce(signal: AbortSignal, streaming: boolean): Promise<WatchOutcome> {
    const timeoutSeconds = this.watchTimeoutSeconds();
    let relist = false;
    let initial: InitialEvents | undefined;
    let startRv = this.resourceVersion;
    let query: Record<string, string>;
    if (streaming) {
      if (this.resourceVersionUnavailable) startRv = '';
      relist = this.beginList(this.relistReason, true);
      initial = new InitialEvents();
      query = this.query(watchListQuery(startRv, timeoutSeconds));
    } else {
      query = this.query({ allowWatchBookmarks: 'true', resourceVersion: startRv, timeoutSeconds: String(timeoutSeconds) });
    }
    const ctl = new AbortController();
    const onOuterAbort = () => ctl.abort(new AbortedError('stopped'));
    signal.addEventListener('abort', onOuterAbort, { once: true });
    if (signal.aborted) onOuterAbort(); // stopped between two requests: an 'abort' listener added now would never run
    const clock = this.o.clock;
    /** When the response headers arrived: an empty watch's duration counts from here, not from set-up. */
    let openedAt = 0;
    /** When the request was made: a streaming list's duration counts from here, like a LIST's. */
    const requestedAt = clock.now();
    let events = 0;
    let failure: Error | undefined;
    let opened = false;
    let connectTimer: TimerHandle | undefined = clock.setTimer(
      () => ctl.abort(new DeadlineError(`no response to the watch within ${Math.round(this.o.requestTimeoutMs / 1000)} s`)),
      this.o.requestTimeoutMs,
    );
    // The no-data deadline: checked in tenths, so a silent stream is cut between 1.0 and 1.1 deadlines.
    const deadlineMs = timeoutSeconds * 1000 + this.o.noDataGraceMs;
    let silentTicks = 0;
    let dataTimer: TimerHandle | undefined;
    const tick = () => {
      if (++silentTicks >= 10) {
        ctl.abort(new DeadlineError(`no data for ${Math.round(deadlineMs / 1000)} s: the connection looks half-open`));
        return;
      }
      dataTimer = clock.setTimer(tick, deadlineMs / 10);
    };
    // Streaming only: no event for this long before the bookmark = a server that ignores sendInitialEvents (F34).
    // One timer re-armed for the time left, rather than one timer per event (100,000 of them in a big list).
    const progressMs = this.o.watchListProgressMs;
    let progressTimer: TimerHandle | undefined;
    let lastProgress = 0;
    const checkProgress = () => {
      progressTimer = undefined;
      if (!initial) return;
      const left = lastProgress + progressMs - clock.now();
      if (left > 0) {
        progressTimer = clock.setTimer(checkProgress, left);
        return;
      }
      ctl.abort(new StreamingListUnsupportedError(`no initial-events-end bookmark after ${Math.round(progressMs / 1000)} s without an event`));
    };
    const progressed = () => {
      if (!initial) return;
      lastProgress = clock.now();
      if (!progressTimer) progressTimer = clock.setTimer(checkProgress, progressMs);
    };
    const host = this.host;
    const stats = host.stats;
    const store = host.store;
    const transform = this.o.transform;
    const fail = (err: Error) => {
      if (!failure) failure = err;
      ctl.abort(err);
    };

    try {
      await this.o.transport.watch(this.path, query, ctl.signal, {
        onOpen: () => {
          if (signal.aborted) return;
          opened = true;
          openedAt = clock.now();
          this.watchOpened = true;
          this.o.streamingListMemory.connectionSucceeded();
          connectTimer?.cancel();
          connectTimer = undefined;
          stats.watches++;
          dataTimer = clock.setTimer(tick, deadlineMs / 10);
          progressed();
          if (!initial) host.setPhase('watching');
          host.emit({ type: 'watch-opened', resourceVersion: startRv, timeoutSeconds, protocol: this.o.transport.protocol });
        },
        onData: () => {
          silentTicks = 0;
          progressed(); // bytes of a large object still arriving are progress too
        },
        onLine: (parsed, text) => {
          // Nothing is applied once stopped or restarted, not even the rest of a chunk.
          if (failure || ctl.signal.aborted) return;
          if (parsed === undefined || typeof parsed !== 'object' || parsed === null) {
            return fail(new ProtocolError(`malformed line in the watch stream: ${truncate(text())}`));
          }
          const ev = parsed as { type?: unknown; object?: unknown };
          const type = ev.type;
          progressed();
          switch (type) {
            case 'ADDED':
            case 'MODIFIED':
            case 'DELETED': {
              const obj = ev.object;
              if (!isKubeObject(obj)) return fail(new ProtocolError(`${type} event without object metadata`, type));
              events++;
              const rv = obj.metadata.resourceVersion as string;
              const t = transform(obj);
              if (initial) {
                // Part of the streaming list: kept apart until its bookmark.
                if (type === 'DELETED') initial.remove(t);
                else initial.upsert(t);
                return;
              }
              // Recorded before the handlers run, so that they (and a throwing one, F18) see it.
              this.resourceVersion = rv;
              stats.resourceVersion = rv;
              stats.resourceVersionSource = 'event';
              stats.resourceVersionAt = stats.lastEventAt = clock.now();
              if (type === 'DELETED') store.remove(t);
              else store.upsert(t);
              return;
            }
            case 'BOOKMARK': {
              const rv = (ev.object as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
              if (typeof rv !== 'string' || rv === '') return fail(new ProtocolError('BOOKMARK event without a resourceVersion', 'BOOKMARK'));
              events++;
              if (initial) {
                if (!isInitialEventsEnd(ev.object)) return; // not the end of the list yet
                // The end of the streaming list: its objects replace the store's, as a LIST's would.
                const items = initial.take();
                initial = undefined;
                progressTimer?.cancel();
                this.publishList(items, rv, relist, 1, requestedAt, true);
                host.setPhase('watching');
                return;
              }
              this.setResourceVersion(rv, 'bookmark');
              stats.lastBookmarkAt = stats.resourceVersionAt;
              host.emit({ type: 'bookmark', resourceVersion: rv });
              return;
            }
            case 'ERROR': {
              const status = (ev.object ?? {}) as ConstructorParameters<typeof ApiError>[0];
              const err = new ApiError(status, 'event');
              // Before its bookmark, an ERROR other than about our resourceVersion means the
              // server cannot stream the list (file 90: 500 "RequestWatchProgress is disabled").
              if (initial && !err.isExpired && !err.isResourceVersionTooLarge) {
                return fail(new StreamingListUnsupportedError(`ERROR ${describeError(err)} before the initial-events-end bookmark`));
              }
              return fail(err);
            }
            default:
              // F15: a type this client does not know is logged and skipped; the watch goes on.
              host.emit({
                type: 'warning',
                message: `skipped a watch event of unknown type ${truncate(JSON.stringify(type) ?? 'undefined')}`,
                eventType: typeof type === 'string' ? type : undefined,
              });
              return;
          }
        },
      }, this.hints);
    } catch (err) {
      if (!failure) failure = err instanceof Error ? err : new Error(String(err));
    } finally {
      connectTimer?.cancel();
      dataTimer?.cancel();
      progressTimer?.cancel();
      signal.removeEventListener('abort', onOuterAbort);
    }

    const durationMs = opened ? clock.now() - openedAt : 0;
    if (ctl.signal.aborted && failure === undefined) failure = reasonOf(ctl.signal);
    // A deadline or our own stop arrives as an AbortedError from the transport: report its cause.
    if (failure instanceof AbortedError && ctl.signal.reason instanceof Error) failure = ctl.signal.reason;
    // The server answered (so a refusal learnt now is not forgotten by the next success).
    if (failure instanceof ApiError) this.o.streamingListMemory.connectionSucceeded();
    // F33: the server refuses the streaming list's parameters.
    if (initial && refusesStreamingList(failure)) failure = new StreamingListUnsupportedError(`422 ${(failure as ApiError).message}`);
    // A streaming list that ended before its bookmark published nothing (F35).
    if (initial && !failure && !signal.aborted) failure = new StreamingListIncompleteError();
    // A healthy server ends a watch at its timeout. One that ends at once with nothing in it is broken (F20).
    const outcome: WatchOutcome =
      events > 0 || durationMs >= (timeoutSeconds * 1000) / 2 ? 'timeout' : durationMs < SHORT_WATCH_MS ? 'short' : 'early';
    // A transport error right after opening, with nothing received, is like a short watch (F20).
    if (opened && events === 0 && durationMs < SHORT_WATCH_MS && failure instanceof TransportError) this.watchFailedAtOnce = true;
    if (opened) {
      host.emit({
        type: 'watch-closed',
        resourceVersion: this.resourceVersion || undefined,
        cause: failure ? (signal.aborted ? 'stopped' : 'failed') : outcome === 'timeout' ? 'ended' : 'ended-early',
        reason: failure ? describeError(failure) : outcome === 'timeout' ? 'the server ended the watch' : 'the server ended the watch early without sending anything',
        events,
        durationMs,
      });
    }
    if (failure) throw failure;
    return outcome;
  }

  /** Runs one request with the request deadline. */
  private async withDeadline<T>(signal: AbortSignal, fn: (s: AbortSignal) => Promise<T>, what: string): Promise<T> {
    const ctl = new AbortController();
    const onOuterAbort = () => ctl.abort(new AbortedError('stopped'));
    signal.addEventListener('abort', onOuterAbort, { once: true });
    if (signal.aborted) onOuterAbort(); // stopped between two requests: an 'abort' listener added now would never run
    const timer = this.o.clock.setTimer(
      () => ctl.abort(new DeadlineError(`no answer to the ${what} within ${Math.round(this.o.requestTimeoutMs / 1000)} s`)),
      this.o.requestTimeoutMs,
    );
    try {
      return await fn(ctl.signal);
    } catch (err) {
      if (ctl.signal.reason instanceof DeadlineError) throw ctl.signal.reason;
      throw err;
    } finally {
      timer.cancel();
      signal.removeEventListener('abort', onOuterAbort);
    }
  }
}

/** A request or stream exceeded its deadline. */
class DeadlineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadlineError';
  }
}

/** The server closed a watch early without sending anything. */
class ShortWatchError extends Error {
  constructor() {
    super('the server closed the watch at once without sending any event');
    this.name = 'ShortWatchError';
  }
}

function reasonOf(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new AbortedError(String(r));
}

/** Errors that relist when they repeat (F16): server-side failures, not refusals or the network. */
function repeatsLeadToRelist(err: unknown): boolean {
  if (err instanceof ShortWatchError) return true;
  if (err instanceof ApiError) return err.isResourceVersionTooLarge || (err.code >= 500 && err.code !== 503) || err.origin === 'event';
  return false;
}

function errorKey(err: unknown): string {
  if (err instanceof ApiError) return `api:${err.origin}:${err.code}:${err.reason}`;
  if (err instanceof TransportError) return `net:${err.code ?? ''}`;
  return err instanceof Error ? err.name : 'unknown';
}

function truncate(s: string): string {
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
