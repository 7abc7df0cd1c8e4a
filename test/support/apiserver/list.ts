/**
 * LIST semantics of kube-apiserver 1.26 (etcd3 store + watch cache), computed against the store:
 * - resourceVersion "" / unset: current state; "0": current state, and with the watch cache on the
 *   `limit` is ignored (served whole from the cache).
 * - resourceVersion N with `limit` (legacy match) or resourceVersionMatch=Exact: the snapshot at N,
 *   410 "The resourceVersion for the provided list is too old." when N < the oldest kept revision.
 * - resourceVersion N otherwise (NotOlderThan): current state. N newer than the server: 504 Too large
 *   (after the server's wait for it, see ListOutcome).
 * - `continue`: the snapshot at the token's rv, from its start key; a token older than the history
 *   gives 410 Expired with a fresh rv -1 token (transcript 05), and rv -1 lists the current state.
 * Items are sorted by etcd key (namespace/name), carry no kind/apiVersion, and each page has at
 * most `limit` items; `remainingItemCount` is only set without selectors (as etcd3 does).
 */
import type { KubeObjectJson, ResourceDefinition } from './types';
import type { ObjectStore } from './store';
import { objectKey } from './store';
import { groupVersionOf, qualifiedName } from './resources';
import { decodeContinue, encodeContinue } from './continue-token';
import { parseFieldSelector, parseLabelSelector, SelectorError } from './selectors';
import { matches, type Predicate } from './predicate';
import {
  badRequest,
  continueExpired,
  invalidWatchOptions,
  listInvalidResourceVersion,
  listTooOld,
  tooLargeResourceVersion,
  type StatusJson,
} from './status';

export interface ListBody {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: KubeObjectJson[];
}

/**
 * `tooLarge`: the resourceVersion is newer than the server's; the server waits for it about 3 s
 * before answering with `status` (504) and a Retry-After header (1.34.9, test/real/wire-parity).
 */
export type ListOutcome = { ok: true; body: ListBody } | { ok: false; status: StatusJson; tooLarge?: boolean };

const fail = (status: StatusJson): ListOutcome => ({ ok: false, status });
const tooLarge = (requested: number, current: number): ListOutcome => ({ ok: false, status: tooLargeResourceVersion(requested, current), tooLarge: true });

/** What a LIST depends on besides the request: the watch cache, and 1.32+ validation. */
export interface ListServerOptions {
  watchCache: boolean;
  /** 1.32 and newer: `sendInitialEvents` is a known option, refused on a LIST. */
  modern: boolean;
}

/** Builds the predicate of a list/watch request, or the 400 Status for a bad selector. */
export function predicateFor(
  def: ResourceDefinition,
  namespace: string | undefined,
  query: Record<string, string>,
): { ok: true; predicate: Predicate } | { ok: false; status: StatusJson } {
  try {
    return {
      ok: true,
      predicate: {
        namespace,
        labels: parseLabelSelector(query.labelSelector),
        fields: parseFieldSelector(query.fieldSelector, def.selectableFields ?? []),
      },
    };
  } catch (e) {
    if (e instanceof SelectorError) return { ok: false, status: badRequest(e.message) };
    throw e;
  }
}

/** Parses a non-empty resourceVersion parameter; undefined when it is not an unsigned integer. */
export function parseRv(v: string): number | undefined {
  return /^\d+$/.test(v) ? Number(v) : undefined;
}

export function listObjects(
  store: ObjectStore,
  def: ResourceDefinition,
  namespace: string | undefined,
  query: Record<string, string>,
  { watchCache, modern }: ListServerOptions,
): ListOutcome {
  const pred = predicateFor(def, namespace, query);
  if (!pred.ok) return fail(pred.status);
  const selective = Boolean(query.labelSelector?.trim() || query.fieldSelector?.trim());
  const rvParam = query.resourceVersion ?? '';
  const match = query.resourceVersionMatch ?? '';
  // Every refused option is named in one 422, as the real validation does (1.34.9, test/real/wire-parity).
  const refused: { reason: string; message: string; field: string }[] = [];
  const forbidden = (field: string, message: string) => refused.push({ reason: 'FieldValueForbidden', message: `Forbidden: ${message}`, field });
  if (match !== '' && rvParam === '') forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (modern && query.sendInitialEvents !== undefined) forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  if (refused.length > 0) return fail(invalidWatchOptions(refused));
  const limitNum = query.limit !== undefined && /^\d+$/.test(query.limit) ? Number(query.limit) : 0;
  let limit = limitNum > 0 ? limitNum : 0;

  let at = store.rv;
  let start = '';
  if (query.continue) {
    let token;
    try {
      token = decodeContinue(query.continue);
    } catch (e) {
      return fail(badRequest(`invalid continue token: ${(e as Error).message}`));
    }
    if (token.rv !== -1) {
      if (token.rv < store.oldestRv) return fail(continueExpired(encodeContinue({ rv: -1, start: token.start })));
      if (token.rv > store.rv) return tooLarge(token.rv, store.rv);
      at = token.rv;
    }
    start = token.start;
  } else if (rvParam === '0') {
    if (watchCache) limit = 0;
  } else if (rvParam !== '') {
    const n = parseRv(rvParam);
    if (n === undefined) return fail(listInvalidResourceVersion(rvParam));
    if (n > store.rv) return tooLarge(n, store.rv);
    const exact = match === 'Exact' || (match === '' && limit > 0);
    if (exact) {
      if (n < store.oldestRv) return fail(listTooOld());
      at = n;
    }
  }

  // The store's own objects: only the page served is copied (a 10,000-object type listed by name copies one).
  const state = store.snapshot(qualifiedName(def), at);
  if (!state) return fail(listTooOld());
  const keyed: [string, KubeObjectJson][] = [];
  for (const obj of state.values()) {
    if (!matches(pred.predicate, obj)) continue;
    const key = namespace !== undefined ? obj.metadata.name : objectKey(obj.metadata.namespace, obj.metadata.name);
    if (key >= start) keyed.push([key, obj]);
  }
  keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  const metadata: ListBody['metadata'] = { resourceVersion: String(at) };
  let page = keyed;
  if (limit > 0 && keyed.length > limit) {
    page = keyed.slice(0, limit);
    metadata.continue = encodeContinue({ rv: at, start: `${page[page.length - 1][0]}\u0000` });
    if (!selective) metadata.remainingItemCount = keyed.length - limit;
  }
  return {
    ok: true,
    body: { kind: `${def.kind}List`, apiVersion: groupVersionOf(def), metadata, items: page.map(([, o]) => structuredClone(o)) },
  };
}
