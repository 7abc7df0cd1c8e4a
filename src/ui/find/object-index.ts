import type { Disposable } from '../../base';
import type { KubeObject } from '../../informer';
import type { EntriesChange, EntryHandler, ObjectsRemoved, WatchEntry } from '../../manager';

/** What the index needs of the watch manager (a WatchManager is one). */
export interface ObjectIndexSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  addHandler(handler: EntryHandler): Disposable;
  onObjectsRemoved(listener: (removed: ObjectsRemoved) => void): Disposable;
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
}

/** One object as Find Object lists it: its name, then kind, namespace and context, then its labels. */
export interface FoundObject {
  readonly key: string;
  /** The name: what the filter matches first. */
  readonly label: string;
  /** `Pod · shop · kind-dev`: kind, namespace (none for cluster-scoped objects) and, with several, the context. */
  readonly description: string;
  /** Its labels, `app=web  tier=front`, so that a label can be searched for too. */
  readonly detail?: string;
  readonly entryId: string;
  readonly namespace: string;
  readonly name: string;
}

/** Labels shown (and searchable) per object at most. */
const MAX_LABELS = 6;

/**
 * Every object in the watched caches, for Find Object (issue 23, part 4), kept current from the
 * manager's events while open: adds, updates (labels change), deletes, and watches that come or
 * go. `changed` says whether anything moved since `items()` was last read.
 * Invariant: `items()` equals what the caches hold (one item per object of a running watch);
 * after `dispose()` no listener is held.
 */
export class ObjectIndex implements Disposable {
  private readonly byKey = new Map<string, FoundObject>();
  private readonly subscriptions: Disposable[];
  private dirty = true;
  private several: boolean;

  constructor(private readonly source: ObjectIndexSource) {
    this.several = severalContexts(source.entries());
    this.rebuild();
    this.subscriptions = [
      source.addHandler({
        onAdd: (id, obj) => this.put(id, obj),
        onUpdate: (id, _old, obj) => this.put(id, obj),
        onDelete: (id, obj) => this.drop(id, obj),
      }),
      source.onObjectsRemoved((removed) => {
        for (const obj of removed.objects) this.drop(removed.entryId, obj);
      }),
      source.onDidChangeEntries((change) => {
        if (change.added.length + change.removed.length > 0) this.rebuild();
      }),
    ];
  }

  /** True when `items()` would differ from what it last returned. */
  get changed(): boolean {
    return this.dirty;
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Every object now, in no particular order (the quick pick sorts by how well each matches). */
  items(): FoundObject[] {
    this.dirty = false;
    return [...this.byKey.values()];
  }

  get(key: string): FoundObject | undefined {
    return this.byKey.get(key);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.byKey.clear();
  }

  private rebuild(): void {
    const entries = this.source.entries();
    this.several = severalContexts(entries);
    this.byKey.clear();
    for (const entry of entries) if (entry.informer) for (const obj of entry.informer.store.values()) this.add(entry, obj);
    this.dirty = true;
  }

  private put(entryId: string, obj: KubeObject): void {
    const entry = this.source.entry(entryId);
    if (entry) this.add(entry, obj);
    this.dirty = true;
  }

  private drop(entryId: string, obj: KubeObject): void {
    if (this.byKey.delete(keyOf(entryId, obj.metadata.namespace ?? '', obj.metadata.name ?? ''))) this.dirty = true;
  }

  private add(entry: WatchEntry, obj: KubeObject): void {
    const name = obj.metadata.name;
    if (!name) return;
    const item = foundObject(entry, obj, this.several);
    this.byKey.set(item.key, item);
  }
}

/** An object as Find Object lists it. */
export function foundObject(entry: WatchEntry, obj: KubeObject, severalContexts: boolean): FoundObject {
  const namespace = obj.metadata.namespace ?? '';
  const name = obj.metadata.name ?? '';
  const kind = entry.type?.kind ?? obj.kind ?? entry.resource;
  const labels = Object.entries(obj.metadata.labels ?? {});
  const shown = labels.slice(0, MAX_LABELS).map(([k, v]) => `${k}=${v}`);
  if (labels.length > MAX_LABELS) shown.push(`+${labels.length - MAX_LABELS} more`);
  return {
    key: keyOf(entry.id, namespace, name),
    label: name,
    description: [kind, namespace, severalContexts ? entry.context : ''].filter(Boolean).join(' · '),
    ...(shown.length > 0 ? { detail: shown.join('  ') } : {}),
    entryId: entry.id,
    namespace,
    name,
  };
}

function keyOf(entryId: string, namespace: string, name: string): string {
  return `${entryId}\u0000${namespace}\u0000${name}`;
}

function severalContexts(entries: readonly WatchEntry[]): boolean {
  return new Set(entries.map((e) => e.context)).size > 1;
}
