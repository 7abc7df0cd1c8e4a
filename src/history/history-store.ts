import { Emitter, systemClock, type Clock, type Disposable } from '../base';
import { type KubeObject } from '../informer';
import type { Arrival } from './arrival';
import { EvictionQueue } from './eviction-queue';
import { ExpiryQueue } from './expiry-queue';
import { normalizeHistorySettings, type HistorySettings } from './history-settings';
import { ObjectHistory } from './object-history';

/** A history's key in its watch: the uid (the name for an object without one, which real servers never send). */
function keyOf(obj: KubeObject): string {
  return obj.metadata.uid || `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

export interface HistoryStoreOptions {
  /** Arrival times and the expiry of deleted objects; default the system clock. */
  clock?: Clock;
  settings?: Partial<HistorySettings>;
}

/** What the store holds, for status displays, tests and the memory bench. */
export interface HistoryStats {
  /** Histories kept (one per object incarnation). */
  histories: number;
  /** Of which the object is gone (deleted, or its watch discarded). */
  gone: number;
  versions: number;
  /** The estimate the cap is enforced on. */
  estimatedBytes: number;
  capBytes: number;
  /** Versions dropped to stay under the cap, since the store was created. */
  droppedByCap: number;
  /** Histories of gone objects dropped after `keepDeletedMinutes`. */
  expired: number;
}

/**
 * The change history of every cached object: for each object incarnation (watch entry and uid)
 * its last `versionsPerObject` versions, with when and how each arrived. VS Code-free.
 *
 * Bounds, all enforced on every change:
 * - per object: the oldest version is dropped beyond `versionsPerObject`;
 * - in total: while the estimated size exceeds `maxMegabytes`, the oldest version of all is
 *   dropped (a history whose only version goes is dropped whole);
 * - in time: a history whose object was deleted (or left the view) is dropped
 *   `keepDeletedMinutes` later, unless the object came back.
 * The newest version of a live object is the informer's cached object itself, so keeping it
 * costs nothing; see ObjectHistory for how older versions are stored.
 *
 * An object from a watch's first list gets a history only when it first changes (or goes):
 * until then its one version is the cached object, first seen at the time of that list
 * (`listedAt`), so 100,000 quiet Pods cost nothing here. `snapshot` shows such an object as a
 * one-version history. When it changes, the version it had is recorded as listed at that time;
 * that claim is exact unless the cap has dropped the history of a live object of that watch,
 * which then could have been this one: from then on, a first change records only the new version.
 */
export class HistoryStore implements Disposable {
  private readonly clock: Clock;
  private settings: HistorySettings;
  private readonly byEntry = new Map<string, Map<string, ObjectHistory>>();
  private readonly evictions = new EvictionQueue<ObjectHistory>();
  private readonly expiry: ExpiryQueue<ObjectHistory>;
  private readonly changes = new Emitter<ObjectHistory>();
  private seq = 0;
  /** Per watch: when its first list (not a relist) arrived. */
  private readonly listedAt = new Map<string, number>();
  /** Per watch: histories of live objects the cap dropped whole (after which `listedAt` claims stop). */
  private readonly droppedLive = new Map<string, number>();
  private total = 0;
  private histories = 0;
  private versionCount = 0;
  private goneCount = 0;
  private droppedByCap = 0;
  private expired = 0;

  constructor(options: HistoryStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.settings = normalizeHistorySettings(options.settings);
    this.expiry = new ExpiryQueue<ObjectHistory>(
      this.clock,
      this.keepMs,
      (h, at) => h.skip !== -1 && h.gone?.at === at,
      (h) => {
        this.expired++;
        this.drop(h);
      },
    );
  }

  get currentSettings(): HistorySettings {
    return this.settings;
  }

  /** Applies new limits at once: histories are trimmed, the cap enforced, expiry re-timed. */
  configure(settings: Partial<HistorySettings>): void {
    const next = normalizeHistorySettings({ ...this.settings, ...settings });
    const shorter = next.versionsPerObject < this.settings.versionsPerObject;
    this.settings = next;
    if (shorter) for (const h of this.all()) this.trim(h);
    this.enforceCap();
    this.expiry.setKeepMs(this.keepMs);
  }

  /** Fires after a history got a version, lost its object or came back (not when trimmed). */
  onDidChange(listener: (history: ObjectHistory) => void): Disposable {
    return this.changes.on(listener);
  }

  // ---- recording ----

  /** A watch's first list (not a relist) starts: the objects it brings are first seen now. */
  listStarted(entryId: string): void {
    this.listedAt.set(entryId, this.clock.now());
  }

  /** The object appeared in the cache of `entryId`. */
  added(entryId: string, obj: KubeObject, arrival: Arrival): void {
    const h = this.get(entryId, keyOf(obj));
    if (!h) {
      // From a first list: no history until it changes (see the class comment).
      if (arrival === 'list') {
        if (!this.listedAt.has(entryId)) this.listedAt.set(entryId, this.clock.now());
        return;
      }
      this.create(entryId, obj, arrival, 'added');
      return;
    }
    if (h.newestInfo().resourceVersion === obj.metadata.resourceVersion) {
      // Back in the view unchanged (its watch was rebuilt): same history, nothing new; share the cache's object.
      const wasGone = h.gone !== undefined;
      this.track(h, () => h.revive(obj));
      if (wasGone) {
        this.goneCount--;
        this.changes.fire(h);
      }
      return;
    }
    this.append(h, obj, arrival, 'modified');
  }

  /** The object changed in the cache of `entryId`; `previous` is the version the cache held. */
  updated(entryId: string, obj: KubeObject, arrival: Arrival, previous?: KubeObject): void {
    const h = this.get(entryId, keyOf(obj)) ?? this.firstChange(entryId, previous, obj.metadata.uid);
    if (!h) {
      this.create(entryId, obj, arrival, 'modified');
      return;
    }
    this.append(h, obj, arrival, 'modified');
  }

  /**
   * The object left the cache of `entryId`: `obj` is its final state (a watch DELETED event) or
   * the last state seen (`synthetic-delete`).
   */
  deleted(entryId: string, obj: KubeObject, arrival: 'event' | 'synthetic-delete'): void {
    const at = this.clock.now();
    let h = this.get(entryId, keyOf(obj)) ?? (arrival === 'synthetic-delete' ? this.firstChange(entryId, obj, obj.metadata.uid) : undefined);
    if (h?.gone) return; // already gone (removed from the view): nothing to add
    if (h) this.append(h, obj, arrival, 'deleted', at);
    else h = this.create(entryId, obj, arrival, 'deleted', at);
    if (h.skip === -1) return; // dropped at once by the cap
    this.markGone(h, { at, why: 'deleted' });
  }

  /** The objects left the view without being deleted (their watch was discarded or replaced). */
  removed(entryId: string, objects: readonly KubeObject[], reason: string): void {
    const at = this.clock.now();
    for (const obj of objects) {
      const h = this.get(entryId, keyOf(obj));
      if (!h || h.gone) continue;
      this.markGone(h, { at, why: 'removed', reason });
    }
  }

  // ---- queries ----

  get(entryId: string, uid: string): ObjectHistory | undefined {
    return this.byEntry.get(entryId)?.get(uid);
  }

  /**
   * The history of a cached object: its own, or for an object unchanged since its watch's first
   * list, a one-version history made for the occasion (not kept; its version's seq is 0).
   * `firstSeenKnown` is false when that one version's "first seen in the list" cannot be claimed.
   */
  historyOf(entryId: string, obj: KubeObject): { history: ObjectHistory; firstSeenKnown: boolean } {
    const h = this.get(entryId, keyOf(obj));
    if (h) return { history: h, firstSeenKnown: true };
    const snapshot = new ObjectHistory(entryId, { obj, seq: 0, at: this.listedAt.get(entryId) ?? this.clock.now(), arrival: 'list', change: 'added' });
    snapshot.skip = -1;
    return { history: snapshot, firstSeenKnown: !this.droppedLive.get(entryId) };
  }

  /**
   * The histories of the object named `namespace/name` in `entryId`: the live one first (if
   * kept), then earlier incarnations whose objects are gone, most recently gone first.
   */
  find(entryId: string, namespace: string, name: string): ObjectHistory[] {
    const map = this.byEntry.get(entryId);
    if (!map) return [];
    const live: ObjectHistory[] = [];
    const gone: ObjectHistory[] = [];
    for (const h of map.values()) {
      if (h.name !== name || h.namespace !== namespace) continue;
      (h.gone ? gone : live).push(h);
    }
    return [...live, ...gone.sort((a, b) => (b.gone?.at ?? 0) - (a.gone?.at ?? 0))];
  }

  /** Histories whose object is gone, most recently gone first; only those of `entryIds` when given. */
  gone(entryIds?: readonly string[]): ObjectHistory[] {
    const wanted = entryIds && new Set(entryIds);
    return this.goneHistories().filter((h) => !wanted || wanted.has(h.entryId));
  }

  /**
   * The most recently changed histories (two versions or more, or gone), newest change first,
   * at most `limit`; only those of `entryIds` when given.
   */
  recent(limit: number, entryIds?: readonly string[]): ObjectHistory[] {
    const wanted = entryIds && new Set(entryIds);
    const found: { h: ObjectHistory; at: number }[] = [];
    for (const [entryId, map] of this.byEntry) {
      if (wanted && !wanted.has(entryId)) continue;
      for (const h of map.values()) if (h.size > 1 || h.gone) found.push({ h, at: h.gone?.at ?? h.newestInfo().at });
    }
    return found
      .sort((a, b) => b.at - a.at)
      .slice(0, limit)
      .map((f) => f.h);
  }

  stats(): HistoryStats {
    return {
      histories: this.histories,
      gone: this.goneCount,
      versions: this.versionCount,
      estimatedBytes: this.total,
      capBytes: this.capBytes,
      droppedByCap: this.droppedByCap,
      expired: this.expired,
    };
  }

  /** Forgets everything (the settings stay). */
  clear(): void {
    for (const h of this.all()) h.skip = -1;
    this.byEntry.clear();
    this.evictions.clear();
    this.listedAt.clear();
    this.droppedLive.clear();
    this.total = this.histories = this.versionCount = this.goneCount = 0;
  }

  dispose(): void {
    this.expiry.dispose();
    this.changes.dispose();
    this.clear();
  }

  // ---- internals ----

  private get keepMs(): number {
    return this.settings.keepDeletedMinutes * 60_000;
  }

  private get capBytes(): number {
    return this.settings.maxMegabytes * 1024 * 1024;
  }

  private *all(): IterableIterator<ObjectHistory> {
    for (const map of this.byEntry.values()) yield* map.values();
  }

  private goneHistories(): ObjectHistory[] {
    const out: ObjectHistory[] = [];
    if (this.goneCount === 0) return out;
    for (const h of this.all()) if (h.gone) out.push(h);
    return out.sort((a, b) => (b.gone?.at ?? 0) - (a.gone?.at ?? 0));
  }

  /**
   * The first change of an object from a first list, which has no history yet: a history holding
   * the version it had (`previous`, the cached object), first seen at that list. Undefined when
   * that cannot be claimed (see the class comment) or `previous` is not that object.
   */
  private firstChange(entryId: string, previous: KubeObject | undefined, uid: string | undefined): ObjectHistory | undefined {
    if (!previous || previous.metadata.uid !== uid || this.droppedLive.get(entryId)) return undefined;
    return this.create(entryId, previous, 'list', 'added', this.listedAt.get(entryId) ?? this.clock.now(), true);
  }

  /** A new history with one version; `listed`: that version is a first list's, older than all queued. */
  private create(entryId: string, obj: KubeObject, arrival: Arrival, change: 'added' | 'modified' | 'deleted', at = this.clock.now(), listed = false): ObjectHistory {
    const h = new ObjectHistory(entryId, { obj, seq: ++this.seq, at, arrival, change });
    let map = this.byEntry.get(entryId);
    if (!map) this.byEntry.set(entryId, (map = new Map()));
    map.set(keyOf(obj), h);
    this.histories++;
    this.versionCount++;
    this.total += h.bytes;
    if (listed) this.evictions.pushFront(h);
    else this.evictions.push(h);
    if (!listed) {
      this.enforceCap();
      if (h.skip !== -1) this.changes.fire(h);
    }
    return h;
  }

  private append(h: ObjectHistory, obj: KubeObject, arrival: Arrival, change: 'modified' | 'deleted', at = this.clock.now()): void {
    const wasGone = h.gone !== undefined;
    let added = false;
    this.track(h, () => {
      added = h.record({ obj, seq: ++this.seq, at, arrival, change });
    });
    if (wasGone && !h.gone) this.goneCount--;
    if (added) {
      this.versionCount++;
      this.evictions.push(h);
      this.trim(h);
    }
    this.enforceCap();
    if (h.skip !== -1) this.changes.fire(h);
  }

  private markGone(h: ObjectHistory, gone: { at: number; why: 'deleted' | 'removed'; reason?: string }): void {
    this.track(h, () => h.markGone(gone));
    this.goneCount++;
    this.expiry.add(h, gone.at);
    this.enforceCap();
    if (h.skip !== -1) this.changes.fire(h);
  }

  /** Runs a change of `h` and books the change of its size. */
  private track(h: ObjectHistory, change: () => void): void {
    const before = h.bytes;
    change();
    this.total += h.bytes - before;
  }

  /** Drops `h`'s oldest versions beyond the per-object bound. */
  private trim(h: ObjectHistory): void {
    while (h.size > this.settings.versionsPerObject) {
      this.track(h, () => h.dropOldest());
      this.versionCount--;
      this.evictions.forgetOne(h);
    }
  }

  private enforceCap(): void {
    const cap = this.capBytes;
    while (this.total > cap) {
      const h = this.evictions.shift();
      if (!h) break;
      this.droppedByCap++;
      if (h.size > 1) {
        this.track(h, () => h.dropOldest());
        this.versionCount--;
      } else {
        if (!h.gone) this.droppedLive.set(h.entryId, (this.droppedLive.get(h.entryId) ?? 0) + 1);
        this.drop(h, true);
      }
    }
  }

  /** Forgets a history. `consumed`: its last queue entry was just taken by the cap. */
  private drop(h: ObjectHistory, consumed = false): void {
    if (h.skip === -1) return;
    const map = this.byEntry.get(h.entryId);
    const key = h.uid || `${h.namespace}/${h.name}`;
    if (map?.get(key) === h) {
      map.delete(key);
      if (map.size === 0) this.byEntry.delete(h.entryId);
    }
    this.histories--;
    this.versionCount -= h.size;
    if (h.gone) this.goneCount--;
    this.total -= h.bytes;
    this.evictions.forgetAll(h, consumed ? h.size - 1 : h.size);
  }
}
