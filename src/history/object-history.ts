import type { KubeObject } from '../informer';
import type { Arrival, VersionChange } from './arrival';
import { isHeartbeatPath, isIgnoredPath } from './noise-fields';
import { applyPatch, patchPaths, reversePatch, type Patch } from './reverse-patch';
import { HISTORY_BYTES, VERSION_SLOT_BYTES, stringBytes } from './size-estimate';

/** One version as the UI sees it. */
export interface VersionInfo {
  /** Unique in the store, increasing with arrival: the version's identity (URIs carry it). */
  readonly seq: number;
  readonly resourceVersion: string;
  /** Clock time it arrived (for merged heartbeats: the last one's). */
  readonly at: number;
  readonly arrival: Arrival;
  readonly change: VersionChange;
  /** Heartbeat-only updates merged into this version (0: none). See ObjectHistory.record. */
  readonly heartbeats: number;
}

/** Why a history's object is no longer in any cache. */
export interface Gone {
  at: number;
  /** `deleted` on the server (seen or inferred); `removed` from the view (its watch was discarded). */
  why: 'deleted' | 'removed';
  /** For `removed`: the manager's reason ("no longer configured", …). */
  reason?: string;
  namespace: string;
  name: string;
  uid: string;
}

const ARRIVALS: readonly Arrival[] = ['event', 'list', 'relist', 'synthetic-delete'];
const CHANGES: readonly VersionChange[] = ['added', 'modified', 'deleted'];

/**
 * A stored version: one flat JSON string `[seq, rv, at, arrival, change, heartbeats, heartbeatOnly, patch]`
 * (codes for arrival and change; patch: null for the newest version, `{}` when equal to the next). One string per version is
 * the most compact form V8 keeps (no object, no boxed number, no separate strings), and JSON.stringify
 * makes it flat, so its size is known exactly.
 */
type Encoded = [seq: number, rv: string, at: number, arrival: number, change: number, heartbeats: number, heartbeatOnly: 0 | 1, patch: Patch | null];

/** `patch`: null for the newest version; undefined (equal versions) is stored as `{}`. */
function encode(info: VersionInfo, heartbeatOnly: boolean, patch: Patch | undefined | null): string {
  const e: Encoded = [info.seq, info.resourceVersion, info.at, ARRIVALS.indexOf(info.arrival), CHANGES.indexOf(info.change), info.heartbeats, heartbeatOnly ? 1 : 0, patch === undefined ? {} : patch];
  return JSON.stringify(e);
}

function decode(text: string): { info: VersionInfo; heartbeatOnly: boolean; patch: Patch | null } {
  const [seq, resourceVersion, at, a, c, heartbeats, h, patch] = JSON.parse(text) as Encoded;
  return { info: { seq, resourceVersion, at, arrival: ARRIVALS[a], change: CHANGES[c], heartbeats }, heartbeatOnly: h === 1, patch };
}

/** A version to record. */
export interface Incoming {
  obj: KubeObject;
  seq: number;
  at: number;
  arrival: Arrival;
  change: VersionChange;
}

/** True when a patch between two versions touches only bookkeeping and heartbeat timestamps, and at least one heartbeat. */
function heartbeatOnlyPatch(patch: Patch | undefined): boolean {
  let heartbeat = false;
  let other = false;
  patchPaths(patch, (path) => {
    if (isHeartbeatPath(path)) heartbeat = true;
    else if (!isIgnoredPath(path)) other = true;
    return !other;
  });
  return heartbeat && !other;
}

/**
 * The history of one object incarnation (one uid) in one watch: its versions, oldest first.
 * The newest version is kept whole: while the object is cached, as the cached object itself
 * (shared with the informer, so it costs nothing here); once gone, as its JSON text. Every
 * older version is its reverse patch from the version after it (reverse-patch.ts).
 *
 * Invariants: `versions` is never empty while the history is in a store; the last element has
 * no patch; `bytes` is the estimate of what this history alone keeps alive.
 * Fields other than the methods belong to the store.
 */
export class ObjectHistory {
  private versions: readonly string[];
  private head: KubeObject | string;
  gone: Gone | undefined;
  /** Estimated bytes this history alone keeps alive (kept up to date by every method). */
  bytes: number;
  /** Eviction-queue bookkeeping (see EvictionQueue): entries to skip; -1 once dropped. */
  skip = 0;

  constructor(
    readonly entryId: string,
    first: Incoming,
  ) {
    this.head = first.change === 'deleted' ? JSON.stringify(first.obj) : first.obj;
    const v = encode(infoOf(first), false, null);
    this.versions = [v];
    this.bytes = HISTORY_BYTES + versionBytes(v) + headBytes(this.head);
  }

  get uid(): string {
    return this.gone?.uid ?? this.newest().metadata.uid ?? '';
  }

  get namespace(): string {
    return this.gone?.namespace ?? this.newest().metadata.namespace ?? '';
  }

  get name(): string {
    return this.gone?.name ?? this.newest().metadata.name ?? '';
  }

  /** Versions kept. */
  get size(): number {
    return this.versions.length;
  }

  /** Versions, oldest first. */
  infos(): VersionInfo[] {
    return this.versions.map((v) => decode(v).info);
  }

  newestInfo(): VersionInfo {
    return decode(this.versions[this.versions.length - 1]).info;
  }

  oldestInfo(): VersionInfo {
    return decode(this.versions[0]).info;
  }

  /** The newest version: the cached object itself while live (do not mutate), a fresh parse once gone. */
  newest(): KubeObject {
    return typeof this.head === 'string' ? (JSON.parse(this.head) as KubeObject) : this.head;
  }

  /** True while the newest version is the informer's cached object. */
  get live(): boolean {
    return typeof this.head !== 'string';
  }

  /**
   * Every version as an object, oldest first: fresh copies, from one backwards pass over the
   * patches. With `from`, only the versions from that index on (cheaper: the pass stops there).
   */
  objects(from = 0): KubeObject[] {
    const n = this.versions.length;
    const start = Math.max(0, Math.min(from, n - 1));
    const out: KubeObject[] = new Array(n - start);
    let cur = JSON.parse(typeof this.head === 'string' ? this.head : JSON.stringify(this.head)) as KubeObject;
    out[n - 1 - start] = cur;
    for (let i = n - 2; i >= start; i--) {
      const { patch } = decode(this.versions[i]);
      cur = applyPatch(structuredClone(cur), patch ?? undefined) as KubeObject;
      out[i - start] = cur;
    }
    return out;
  }

  /** The index of the version with `seq`, or -1. */
  indexOf(seq: number): number {
    return this.versions.findIndex((v) => decode(v).info.seq === seq);
  }

  /**
   * Appends a version: `obj` is the cache's new object, or for a delete the final state (or the
   * last known one). An update that changes only heartbeat timestamps, arriving by watch event
   * right after another such update, replaces it instead (its `heartbeats` count grows), so a
   * Node's heartbeats never push its real changes out of the history.
   * Returns true when a version was added, false when merged into the newest.
   */
  record(next: Incoming): boolean {
    const prev = this.newest();
    const n = this.versions.length;
    const last = decode(this.versions[n - 1]);
    const patch = reversePatch(next.obj, prev);
    const heartbeatOnly = next.change === 'modified' && heartbeatOnlyPatch(patch);
    let replaced: number;
    let added: string[];
    let merged = false;
    if (heartbeatOnly && last.heartbeatOnly && last.info.arrival === 'event' && next.arrival === 'event' && n >= 2) {
      // The version before `last` now patches from `next`, and `next` takes `last`'s place.
      const before = decode(this.versions[n - 2]);
      const beforeObj = applyPatch(structuredClone(prev), before.patch ?? undefined);
      added = [encode(before.info, before.heartbeatOnly, reversePatch(next.obj, beforeObj)), encode({ ...infoOf(next), heartbeats: last.info.heartbeats + 1 }, true, null)];
      replaced = 2;
      merged = true;
    } else {
      added = [encode(last.info, last.heartbeatOnly, patch), encode(infoOf(next), heartbeatOnly, null)];
      replaced = 1;
    }
    for (const v of this.versions.slice(n - replaced)) this.bytes -= versionBytes(v);
    for (const v of added) this.bytes += versionBytes(v);
    this.versions = [...this.versions.slice(0, n - replaced), ...added];
    if (next.change !== 'deleted') this.gone = undefined;
    this.setHead(next.change === 'deleted' ? JSON.stringify(next.obj) : next.obj);
    return !merged;
  }

  /** The object left every cache: keep its newest version as text. */
  markGone(gone: Omit<Gone, 'namespace' | 'name' | 'uid'>): void {
    const obj = this.newest();
    this.gone = { ...gone, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '' };
    if (typeof this.head !== 'string') this.setHead(JSON.stringify(this.head));
  }

  /** A removed object is cached again, unchanged (same resourceVersion): share the cache's object again. */
  revive(obj: KubeObject): void {
    this.gone = undefined;
    this.setHead(obj);
  }

  /** Drops the oldest version (never the newest: the store drops the whole history instead). */
  dropOldest(): void {
    if (this.versions.length <= 1) return;
    this.bytes -= versionBytes(this.versions[0]);
    this.versions = this.versions.slice(1);
  }

  private setHead(head: KubeObject | string): void {
    this.bytes += headBytes(head) - headBytes(this.head);
    this.head = head;
  }
}

/** A version's string and its slots in its history's array and in the store's eviction queue. */
function versionBytes(v: string): number {
  return VERSION_SLOT_BYTES + stringBytes(v);
}

/** The newest version costs nothing while it is the cache's object; its text once gone (and the Gone record). */
function headBytes(head: KubeObject | string): number {
  return typeof head === 'string' ? stringBytes(head) + GONE_BYTES : 0;
}

/** The Gone record of a history whose object left the cache. */
const GONE_BYTES = 80;

function infoOf(v: Incoming): VersionInfo {
  return { seq: v.seq, resourceVersion: v.obj.metadata.resourceVersion ?? '', at: v.at, arrival: v.arrival, change: v.change, heartbeats: 0 };
}
