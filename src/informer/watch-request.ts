import { AbortedError, ApiError, ProtocolError, TransportError, describeError } from '../base/api-error';
import type { TimerHandle } from '../base/clock';
import { isKubeObject } from './kube-object';
import { beginList, publishList } from './list-request';
import { DeadlineError, RewatchRequestedError, truncate, type ReflectorContext } from './reflector-context';
import {
  InitialEvents,
  StreamingListIncompleteError,
  StreamingListUnsupportedError,
  isInitialEventsEnd,
  refusesStreamingList,
  watchListQuery,
} from './watch-list';

/** An empty watch that the server closes sooner than this is a failure, as in client-go (F20). */
const SHORT_WATCH_MS = 1000;

/**
 * How a watch ended cleanly: at (or near) its timeout or with events in it; early and empty;
 * or at once and empty (a failure).
 */
export type WatchOutcome = 'timeout' | 'early' | 'short';

/**
 * One watch from the current resourceVersion, or (`streaming`) a streaming list that goes on as
 * the watch: its objects are gathered apart and published at the initial-events-end bookmark,
 * never before (F32, F35). Resolves with how the watch ended cleanly; throws for everything
 * else that went wrong. ERROR events become ApiErrors; a server that cannot stream the list
 * gives a StreamingListUnsupportedError (F33, F34).
 */
export async function watchOnce(r: ReflectorContext, signal: AbortSignal, streaming: boolean): Promise<WatchOutcome> {
  const timeoutSeconds = watchTimeoutSeconds(r);
  let relist = false;
  let initial: InitialEvents | undefined;
  let startRv = r.resourceVersion;
  let query: Record<string, string>;
  if (streaming) {
    if (r.resourceVersionUnavailable) startRv = '';
    relist = beginList(r, r.relistReason, true);
    initial = new InitialEvents();
    r.host.beginListPreview(initial);
    query = r.query(watchListQuery(startRv, timeoutSeconds));
  } else {
    query = r.query({ allowWatchBookmarks: 'true', resourceVersion: startRv, timeoutSeconds: String(timeoutSeconds) });
  }
  const ctl = new AbortController();
  const onOuterAbort = () => ctl.abort(new AbortedError('stopped'));
  signal.addEventListener('abort', onOuterAbort, { once: true });
  if (signal.aborted) onOuterAbort(); // stopped between two requests: an 'abort' listener added now would never run
  const clock = r.o.clock;
  /** When the response headers arrived: an empty watch's duration counts from here, not from set-up. */
  let openedAt = 0;
  /** When the request was made: a streaming list's duration counts from here, like a LIST's. */
  const requestedAt = clock.now();
  let events = 0;
  let failure: Error | undefined;
  let opened = false;
  let connectTimer: TimerHandle | undefined = clock.setTimer(
    () => ctl.abort(new DeadlineError(`no response to the watch within ${Math.round(r.o.requestTimeoutMs / 1000)} s`)),
    r.o.requestTimeoutMs,
  );
  // The no-data deadline: checked in tenths, so a silent stream is cut between 1.0 and 1.1 deadlines.
  const deadlineMs = timeoutSeconds * 1000 + r.o.noDataGraceMs;
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
  const progressMs = r.o.watchListProgressMs;
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
  const host = r.host;
  const stats = host.stats;
  const store = host.store;
  const transform = r.o.transform;
  const fail = (err: Error) => {
    if (!failure) failure = err;
    ctl.abort(err);
  };

  try {
    await r.o.transport.watch(r.path, query, ctl.signal, {
      onOpen: () => {
        if (signal.aborted) return;
        opened = true;
        openedAt = clock.now();
        r.watchOpened = true;
        r.o.streamingListMemory.connectionSucceeded();
        connectTimer?.cancel();
        connectTimer = undefined;
        stats.watches++;
        dataTimer = clock.setTimer(tick, deadlineMs / 10);
        progressed();
        if (!initial) {
          host.setPhase('watching');
          r.rewatch = (why) => fail(new RewatchRequestedError(why));
        }
        host.emit({ type: 'watch-opened', resourceVersion: startRv, timeoutSeconds, protocol: r.o.transport.protocol, ...(initial ? { streaming: true } : {}) });
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
              host.listGrew();
              return;
            }
            // Recorded before the handlers run, so that they (and a throwing one, F18) see it.
            r.resourceVersion = rv;
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
              publishList(r, items, rv, relist, 1, requestedAt, true);
              host.setPhase('watching');
              r.rewatch = (why) => fail(new RewatchRequestedError(why));
              return;
            }
            r.setResourceVersion(rv, 'bookmark');
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
    }, r.hints);
  } catch (err) {
    if (!failure) failure = err instanceof Error ? err : new Error(String(err));
  } finally {
    r.rewatch = undefined;
    connectTimer?.cancel();
    dataTimer?.cancel();
    progressTimer?.cancel();
    signal.removeEventListener('abort', onOuterAbort);
    // A streaming list that did not reach its bookmark shows nothing of what it received.
    if (initial) host.endListPreview();
  }

  const durationMs = opened ? clock.now() - openedAt : 0;
  if (ctl.signal.aborted && failure === undefined) failure = reasonOf(ctl.signal);
  // A deadline or our own stop arrives as an AbortedError from the transport: report its cause.
  if (failure instanceof AbortedError && ctl.signal.reason instanceof Error) failure = ctl.signal.reason;
  // The server answered (so a refusal learnt now is not forgotten by the next success).
  if (failure instanceof ApiError) r.o.streamingListMemory.connectionSucceeded();
  // F33: the server refuses the streaming list's parameters.
  if (initial && refusesStreamingList(failure)) failure = new StreamingListUnsupportedError(`422 ${(failure as ApiError).message}`);
  // A streaming list that ended before its bookmark published nothing (F35).
  if (initial && !failure && !signal.aborted) failure = new StreamingListIncompleteError();
  // F47: a streaming list that opened and then ended or was cut before its bookmark counts
  // towards giving the streaming list up for this type.
  if (initial && opened && !signal.aborted && (failure instanceof StreamingListIncompleteError || failure instanceof TransportError || failure instanceof DeadlineError)) {
    r.incompleteStreamingLists++;
  }
  // A healthy server ends a watch at its timeout. One that ends at once with nothing in it is broken (F20).
  const outcome: WatchOutcome =
    events > 0 || durationMs >= (timeoutSeconds * 1000) / 2 ? 'timeout' : durationMs < SHORT_WATCH_MS ? 'short' : 'early';
  // A transport error right after opening, with nothing received, is like a short watch (F20).
  if (opened && events === 0 && durationMs < SHORT_WATCH_MS && failure instanceof TransportError) r.watchFailedAtOnce = true;
  if (opened) {
    host.emit({
      type: 'watch-closed',
      resourceVersion: r.resourceVersion || undefined,
      cause: failure ? (signal.aborted || failure instanceof RewatchRequestedError ? 'stopped' : 'failed') : outcome === 'timeout' ? 'ended' : 'ended-early',
      reason: failure ? describeError(failure) : outcome === 'timeout' ? 'the server ended the watch' : 'the server ended the watch early without sending anything',
      events,
      durationMs,
    });
  }
  if (failure) throw failure;
  return outcome;
}

function watchTimeoutSeconds(r: ReflectorContext): number {
  if (r.o.timeoutSeconds !== undefined) return r.o.timeoutSeconds;
  const min = r.o.minWatchTimeoutSeconds;
  return Math.floor(min * (1 + r.o.clock.random()));
}

function reasonOf(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new AbortedError(String(r));
}
