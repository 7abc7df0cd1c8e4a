import { resourceTypeName, type KubeObject } from '../../informer';
import type { WatchEntry } from '../../manager';
import { compareNames, pageOf } from './object-container';
import { NamespaceNode, ObjectNode, ResourceNode, type ObjectRows, type ResourceLayout, type TreeNode } from './tree-node';
import type { TreeRefresh } from './tree-refresh';

/** Where one watch entry sits in the tree. */
export interface EntryPlace {
  entry: WatchEntry;
  node: ResourceNode;
  /** The node that shows this entry's state: its resource node, or its namespace node in the `watches` layout. */
  watchNode: ResourceNode | NamespaceNode;
}

/**
 * The tree's structure: a resource node per (context, resource) and the namespace and object
 * nodes under it, kept in line with the manager's entries and their caches.
 *
 * Invariants:
 * - A node instance stands for its id for as long as it is attached; the same instances are
 *   handed out, so targeted refreshes reach VS Code.
 * - Putting or removing an object costs O(1): one container changes and nodes are marked dirty.
 * - A node that leaves the tree is detached (`attached = false`) and nothing is pending for it.
 */
export class TreeLayout {
  private readonly resources = new Map<string, ResourceNode>();
  /** The resource nodes, in the order of the manager's entries. */
  roots: ResourceNode[] = [];
  /** Where each entry sits, by entry id. */
  readonly places = new Map<string, EntryPlace>();

  constructor(private readonly refresh: TreeRefresh) {}

  /** The kind of the objects of an entry (from its resolved type; list items may lack `kind`). */
  kindOf(entryId: string, obj?: KubeObject): string | undefined {
    return obj?.kind ?? this.places.get(entryId)?.entry.type?.kind;
  }

  /**
   * Brings the resource nodes in line with the manager's entries: creates and retires resource
   * nodes, re-lays out those whose entries or layout changed (moving their objects), seeds new
   * entries from their informers' caches and relabels.
   */
  sync(entries: readonly WatchEntry[]): void {
    const groups = new Map<string, WatchEntry[]>();
    for (const entry of entries) {
      const key = JSON.stringify([entry.context, entry.resource]);
      const list = groups.get(key);
      if (list) list.push(entry);
      else groups.set(key, [entry]);
    }
    for (const list of groups.values()) list.sort((a, b) => compareNames(a.namespace, b.namespace));

    const moved: [string, KubeObject][] = [];
    let setChanged = false;
    for (const [key, node] of this.resources) {
      const next = groups.get(key);
      if (!next) {
        this.collect(node, moved);
        this.detach(node);
        this.resources.delete(key);
        setChanged = true;
        continue;
      }
      const ids = next.map((e) => e.id);
      const layout = layoutFor(next);
      if (layout !== node.layout || !sameList(ids, node.entryIds)) {
        this.collect(node, moved);
        this.layOut(node, next, layout);
        this.refresh.mark(node);
      }
    }
    for (const [key, next] of groups) {
      if (this.resources.has(key)) continue;
      const node = new ResourceNode(`resource:${key}`, next[0].context, next[0].resource);
      this.layOut(node, next, layoutFor(next));
      this.resources.set(key, node);
      setChanged = true;
    }

    const known = new Set(this.places.keys());
    this.places.clear();
    for (const [key, list] of groups) {
      const node = this.resources.get(key);
      if (!node) continue;
      for (const entry of list) {
        const watchNode = node.layout === 'watches' ? node.namespaces.get(entry.namespace) ?? node : node;
        this.places.set(entry.id, { entry, node, watchNode });
      }
    }
    for (const [id, obj] of moved) if (this.places.has(id)) this.upsertQuietly(id, obj);
    for (const [id, place] of this.places) {
      if (known.has(id) || !place.entry.informer) continue;
      for (const obj of place.entry.informer.store.values()) this.upsertQuietly(id, obj);
    }

    const several = new Set(entries.map((e) => e.context)).size > 1;
    for (const [key, node] of this.resources) {
      const label = labelOf(groups.get(key) ?? [], several);
      if (label !== node.label) {
        if (node.label !== '') this.refresh.mark(node);
        node.label = label;
      }
    }
    if (setChanged) {
      this.roots = [...groups.keys()].map((k) => this.resources.get(k)).filter((n): n is ResourceNode => n !== undefined);
      this.refresh.rootsChanged();
    }
  }

  /**
   * Puts `obj` into its container under `place`: replaces the object of an existing node, or adds
   * a node. Returns the container and the node replaced (undefined when one was added), or
   * undefined when the object has no place (no name, no container).
   */
  put(place: EntryPlace, entryId: string, obj: KubeObject): { container: ObjectRows; existing?: ObjectNode; moved?: boolean } | undefined {
    const name = obj.metadata.name;
    if (!name) return undefined;
    const namespace = obj.metadata.namespace ?? '';
    const container = this.containerFor(place, namespace, true);
    if (!container) return undefined;
    container.newestFirst = this.kindOf(entryId, obj) === 'Event';
    const existing = container.get(name);
    if (existing) {
      const previous = existing.object;
      existing.object = obj;
      return { container, existing, moved: container.updated(existing, previous) };
    }
    container.add(new ObjectNode(container.owner, entryId, namespace, name, obj));
    return { container };
  }

  /** `sameUidOnly`: for removals of a discarded informer's objects, which must not take a successor's. */
  remove(entryId: string, obj: KubeObject, sameUidOnly: boolean): void {
    const place = this.places.get(entryId);
    const name = obj.metadata.name;
    if (!place || !name) return;
    const container = this.containerFor(place, obj.metadata.namespace ?? '', false);
    const node = container?.get(name);
    if (!container || !node) return;
    if (sameUidOnly && obj.metadata.uid && node.object.metadata.uid && obj.metadata.uid !== node.object.metadata.uid) return;
    container.remove(name);
    node.attached = false;
    this.refresh.forget(node);
    const owner = container.owner;
    this.refresh.mark(owner);
    if (owner.kind === 'namespace' && !owner.watch && container.size === 0) {
      owner.attached = false;
      place.node.namespaces.delete(owner.namespace);
      place.node.sortedNamespaces = undefined;
      this.refresh.forget(owner);
      this.refresh.mark(place.node);
    }
    this.refresh.statsChanged(place.watchNode);
  }

  /** The container for an object of `place`'s entry in `namespace`; creates a namespace group when asked. */
  containerFor(place: EntryPlace, namespace: string, create: boolean): ObjectRows | undefined {
    const node = place.node;
    switch (node.layout) {
      case 'objects':
        return node.container;
      case 'watches':
        return place.watchNode.kind === 'namespace' ? place.watchNode.container : undefined;
      case 'namespaces': {
        let group = node.namespaces.get(namespace);
        if (!group && create) {
          group = new NamespaceNode(`${place.entry.id}/${namespace}`, node, namespace, place.entry.id, false);
          node.namespaces.set(namespace, group);
          node.sortedNamespaces = undefined;
          this.refresh.mark(node);
        }
        return group?.container;
      }
    }
  }

  /** The children of a resource node: its objects, or its namespace nodes; sorted, paged. */
  resourceChildren(node: ResourceNode, pageSize: number): TreeNode[] {
    switch (node.layout) {
      case 'objects':
        if (node.container.size === 0) return [node.message];
        return pageOf(node.container.sortedNodes(), node.container.pages, pageSize, node.container.more);
      case 'namespaces':
      case 'watches': {
        if (node.namespaces.size === 0) return [node.message];
        if (!node.sortedNamespaces) node.sortedNamespaces = [...node.namespaces.values()].sort((a, b) => compareNames(a.namespace, b.namespace));
        return pageOf(node.sortedNamespaces, node.namespacePages, pageSize, node.moreNamespaces);
      }
    }
  }

  /** The object nodes of one entry, wherever they sit. */
  objectsOf(entryId: string): ObjectNode[] {
    const place = this.places.get(entryId);
    if (!place) return [];
    const out: ObjectNode[] = [];
    for (const n of place.node.container.values()) if (n.entryId === entryId) out.push(n);
    for (const ns of place.node.namespaces.values()) for (const n of ns.container.values()) if (n.entryId === entryId) out.push(n);
    return out;
  }

  /** Inserts without scheduling (the caller refreshes the whole resource node). */
  private upsertQuietly(entryId: string, obj: KubeObject): void {
    const place = this.places.get(entryId);
    const put = place && this.put(place, entryId, obj);
    if (put) this.refresh.mark(put.container.owner);
  }

  /** Gathers every object under `node` (with its entry) into `out`. */
  private collect(node: ResourceNode, out: [string, KubeObject][]): void {
    for (const n of node.container.values()) out.push([n.entryId, n.object]);
    for (const ns of node.namespaces.values()) for (const n of ns.container.values()) out.push([n.entryId, n.object]);
  }

  /** Empties `node` and gives it `entries` and `layout`; what was under it is detached. */
  private layOut(node: ResourceNode, entries: readonly WatchEntry[], layout: ResourceLayout): void {
    for (const n of node.container.clear()) this.forget(n);
    for (const ns of node.namespaces.values()) {
      for (const n of ns.container.clear()) this.forget(n);
      this.forget(ns);
    }
    node.namespaces.clear();
    node.sortedNamespaces = undefined;
    node.entryIds = entries.map((e) => e.id);
    node.layout = layout;
    if (layout === 'watches') {
      for (const entry of entries) node.namespaces.set(entry.namespace, new NamespaceNode(`${entry.id}/${entry.namespace}`, node, entry.namespace, entry.id, true));
    }
  }

  private detach(node: ResourceNode): void {
    this.layOut(node, [], 'objects');
    this.forget(node);
  }

  private forget(node: ResourceNode | NamespaceNode | ObjectNode): void {
    node.attached = false;
    this.refresh.forget(node);
  }
}

/**
 * Several entries (one per configured namespace): a namespace node each. One entry of a
 * namespaced type over all namespaces: group by namespace. Otherwise the objects themselves.
 */
function layoutFor(entries: readonly WatchEntry[]): ResourceLayout {
  if (entries.length > 1) return 'watches';
  const entry = entries[0];
  if (entry.type?.namespaced === false) return 'objects';
  return entry.namespace === '' ? 'namespaces' : 'objects';
}

/** The resolved type name when known (`pods` for `po`), else the spelling; with the context when several are watched. */
function labelOf(entries: readonly WatchEntry[], severalContexts: boolean): string {
  const first = entries[0];
  if (!first) return '';
  const typed = entries.find((e) => e.type)?.type;
  const name = typed ? resourceTypeName(typed) : first.resource;
  return severalContexts ? `${name} (${first.context || 'current context'})` : name;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
