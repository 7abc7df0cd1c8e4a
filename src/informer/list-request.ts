import { AbortedError, ApiError, ProtocolError } from '../base/api-error';
import { isKubeObject, type KubeObject } from './kube-object';
import { ListBuffer } from './list-preview';
import { groupVersion } from './resource-type';
import { DeadlineError, type ReflectorContext } from './reflector-context';

/**
 * A consistent, paginated list (resourceVersion unset: never "0", which may travel back in time
 * on a lagging cache). A continue token that expires mid-list (F11, F37) falls back to one full
 * unpaginated list, as client-go's pager does; nothing reaches the store until the list is complete.
 * Meanwhile the pages so far are the informer's list preview (list-preview.ts), ended with the list.
 */
export async function listAll(r: ReflectorContext, signal: AbortSignal, relistReason: string | undefined): Promise<void> {
  const relist = beginList(r, relistReason, false);
  const started = r.o.clock.now();
  let paginate = r.o.pageSize > 0;
  try {
    for (;;) {
      if (await listOnce(r, signal, paginate, relist, started)) return;
      paginate = false;
    }
  } finally {
    r.host.endListPreview(); // a failed list shows nothing of what it received
  }
}

/**
 * One attempt at the whole list; false when a paginated list's continue token expired (the caller
 * lists again unpaginated).
 */
async function listOnce(r: ReflectorContext, signal: AbortSignal, paginate: boolean, relist: boolean, started: number): Promise<boolean> {
  const buffer = new ListBuffer();
  const items = buffer.items;
  r.host.beginListPreview(buffer);
  let cont = '';
  let pages = 0;
  let listRv = '';
  try {
    do {
      const q = r.query(paginate ? { limit: String(r.o.pageSize) } : {});
      if (cont) q.continue = cont;
      const streamed: unknown[] = [];
      const listStream = paginate ? undefined : r.o.transport.listStream?.bind(r.o.transport);
      // Unpaginated: items parsed one by one as they arrive, never the whole body as one text.
      const page = await withDeadline(
        r,
        signal,
        (s) => (listStream ? listStream(r.path, q, s, (item) => streamed.push(item), r.hints) : r.o.transport.list(r.path, q, s, r.hints)),
        'list page',
      );
      r.o.streamingListMemory.connectionSucceeded();
      pages++;
      if (!page || typeof page !== 'object' || Array.isArray(page)) throw new ProtocolError('the server answered the list with something that is not a list');
      // F48, as client-go accepts them: `items: null` (or none) is an empty list; a list without a
      // resourceVersion is watched from the current state (resourceVersion unset).
      const pageItems = listStream && streamed.length > 0 ? streamed : (page.items ?? []);
      if (!Array.isArray(pageItems)) throw new ProtocolError('the server answered the list with items that are not a list');
      const rv = page.metadata?.resourceVersion;
      if (rv !== undefined && rv !== null && typeof rv !== 'string') throw new ProtocolError('the server answered the list with a resourceVersion that is not a string');
      listRv = rv ?? '';
      collect(r, pageItems, page.kind, page.apiVersion, items);
      buffer.countNew();
      r.host.listGrew();
      r.host.emit({ type: 'list-page', page: pages, items: pageItems.length });
      const next = page.metadata?.continue;
      cont = typeof next === 'string' ? next : '';
    } while (cont);
  } catch (err) {
    if (err instanceof ApiError && err.isExpired && cont && paginate) {
      // client-go's pager: the rest of a paginated list is gone; one full list instead, not a loop.
      r.host.emit({ type: 'list-restarted', reason: `continue token expired on page ${pages + 1}: ${err.message}; listing everything in one request` });
      return false;
    }
    throw err;
  }
  if (signal.aborted) throw new AbortedError('stopped');
  publishList(r, items, listRv, relist, pages, started, false);
  return true;
}

/** Logs the start of a list (paginated or streaming); returns whether it is a relist. */
export function beginList(r: ReflectorContext, relistReason: string | undefined, streaming: boolean): boolean {
  const relist = relistReason !== undefined || r.host.stats.lists > 0;
  if (relistReason !== undefined) r.host.emit({ type: 'relist', reason: relistReason });
  r.host.setPhase('listing', relistReason);
  r.host.emit({ type: 'list-started', relist, resourceVersion: r.resourceVersion || undefined, ...(streaming ? { streaming } : {}) });
  return relist;
}

/** A complete list becomes the store's content; its resourceVersion is the one to watch from. */
export function publishList(r: ReflectorContext, items: KubeObject[], listRv: string, relist: boolean, pages: number, started: number, streaming: boolean): void {
  const stats = r.host.stats;
  if (relist) stats.relists++;
  stats.lists++;
  r.lastAttemptFailed = false;
  r.host.store.replace(items);
  r.setResourceVersion(listRv, 'list');
  r.needList = false;
  r.relistReason = undefined;
  r.resourceVersionUnavailable = false;
  r.incompleteStreamingLists = 0;
  r.host.emit({
    type: 'list-done',
    items: items.length,
    pages,
    resourceVersion: listRv,
    durationMs: r.o.clock.now() - started,
    ...(streaming ? { streaming } : {}),
  });
  r.host.markSynced(listRv);
  // Only now, with the list in the store and synced, does the preview go: no moment shows neither.
  r.host.endListPreview();
}

/** Validates and transforms list items into `out`, giving them the kind the list implies. */
function collect(r: ReflectorContext, raw: unknown[], listKind: string | undefined, apiVersion: string | undefined, out: KubeObject[]): void {
  const kind = listKind?.endsWith('List') ? listKind.slice(0, -4) : r.o.type.kind;
  const av = apiVersion ?? groupVersion(r.o.type);
  let skipped = 0;
  for (const item of raw) {
    if (!isKubeObject(item)) {
      skipped++;
      continue;
    }
    if (item.kind === undefined) item.kind = kind;
    if (item.apiVersion === undefined) item.apiVersion = av;
    out.push(r.o.transform(item));
  }
  if (skipped > 0) r.host.emit({ type: 'warning', message: `skipped ${skipped} list item(s) without a name or resourceVersion` });
}

/** Runs one request with the request deadline. */
async function withDeadline<T>(r: ReflectorContext, signal: AbortSignal, fn: (s: AbortSignal) => Promise<T>, what: string): Promise<T> {
  const ctl = new AbortController();
  const onOuterAbort = () => ctl.abort(new AbortedError('stopped'));
  signal.addEventListener('abort', onOuterAbort, { once: true });
  if (signal.aborted) onOuterAbort(); // stopped between two requests: an 'abort' listener added now would never run
  const timer = r.o.clock.setTimer(
    () => ctl.abort(new DeadlineError(`no answer to the ${what} within ${Math.round(r.o.requestTimeoutMs / 1000)} s`)),
    r.o.requestTimeoutMs,
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
