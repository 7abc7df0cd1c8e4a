import type { ListPreview } from '../../informer';
import { ObjectContainer } from './object-container';
import { NamespaceNode, ObjectNode, type ObjectParent, type ObjectRows } from './tree-node';
import type { EntryPlace, TreeLayout } from './tree-layout';
import type { TreeRefresh } from './tree-refresh';

/**
 * The rows of a watch's first list while it is in progress (the informer's list preview, PERF
 * B10): namespace rows with their count so far, and, when one is expanded, the objects received
 * so far in it. Every such row is drawn as incomplete; none is the cluster's state.
 *
 * Invariants:
 * - A preview is drawn only for an entry with no object rows in the tree (a relist, or rows kept
 *   over a pause, keep showing what they show).
 * - Preview namespace rows are the layout's own namespace nodes (same ids, same instances): when
 *   the complete list arrives its objects fill them, so nothing goes from rows to empty and back,
 *   and an expanded namespace stays expanded.
 * - Object rows of a preview are built only when a namespace is expanded, kept until its count
 *   changes, and detached when the preview ends: nothing of them outlives the list.
 */
export class ListPreviewRows {
  constructor(
    private readonly layout: TreeLayout,
    private readonly refresh: TreeRefresh,
    /** The entry's informer's list preview now, if any. */
    private readonly previewOf: (entryId: string) => ListPreview | undefined,
  ) {}

  /** The preview to draw for an entry: its informer's, unless the tree already holds rows of it. */
  shown(place: EntryPlace): ListPreview | undefined {
    const preview = this.previewOf(place.entry.id);
    return preview && !this.hasRows(place) ? preview : undefined;
  }

  /** The objects so far of the previews drawn for these entries; undefined when none is drawn. */
  sizeOf(entryIds: readonly string[]): number | undefined {
    let total: number | undefined;
    for (const id of entryIds) {
      const place = this.layout.places.get(id);
      const preview = place && this.shown(place);
      if (preview) total = (total ?? 0) + preview.size;
    }
    return total;
  }

  /** An entry's preview grew or ended: its rows follow (marked for the next refresh). */
  progressed(place: EntryPlace): void {
    const preview = this.shown(place);
    const node = place.node;
    // The first rows and the end are refreshed at once; while the list grows, the resource node
    // (whose refresh re-renders every namespace row shown: garbage the extension host keeps until
    // its next full GC, PERF B10's RSS) at most once per watchRefreshMs, new namespaces included.
    const atOnce = !preview || (node.layout === 'namespaces' && node.namespaces.size === 0);
    if (node.layout === 'namespaces') {
      const counts = new Map(preview?.namespaces() ?? []);
      for (const [ns, count] of counts) {
        let group = node.namespaces.get(ns);
        if (!group) {
          group = new NamespaceNode(`${place.entry.id}/${ns}`, node, ns, place.entry.id, false);
          node.namespaces.set(ns, group);
          node.sortedNamespaces = undefined;
        }
        if (group.previewCount === count) continue;
        group.previewCount = count;
        this.dropRows(group);
        this.refresh.mark(group);
      }
      for (const group of [...node.namespaces.values()]) {
        if (group.previewCount === undefined || counts.has(group.namespace)) continue;
        group.previewCount = undefined;
        this.dropRows(group);
        if (group.container.size > 0) {
          this.refresh.mark(group); // the complete list filled it: its rows now
          continue;
        }
        group.attached = false;
        node.namespaces.delete(group.namespace);
        node.sortedNamespaces = undefined;
        this.refresh.forget(group);
      }
    } else {
      const parent = place.watchNode.kind === 'namespace' ? place.watchNode : node;
      this.dropRows(parent);
      this.refresh.mark(parent);
    }
    if (atOnce) this.refresh.mark(node);
    else this.refresh.statsChanged(node);
    if (place.watchNode !== node) this.refresh.mark(node);
  }

  /** The object rows received so far under `parent` (built when first asked), or undefined when it has no preview. */
  rowsOf(parent: ObjectParent): ObjectRows | undefined {
    if (parent.container.size > 0) return undefined;
    const entryId = parent.entryId;
    const place = entryId === undefined ? undefined : this.layout.places.get(entryId);
    const preview = place && this.shown(place);
    if (!place || !preview) return undefined;
    if (parent.kind === 'namespace' && !parent.watch && parent.previewCount === undefined) return undefined;
    if (parent.previewRows) return parent.previewRows;
    const rows: ObjectRows = new ObjectContainer(parent, parent.container.more);
    rows.newestFirst = this.layout.kindOf(place.entry.id) === 'Event';
    const namespaces = parent.kind === 'namespace' && !parent.watch ? [parent.namespace] : [...preview.namespaces()].map(([ns]) => ns);
    for (const ns of namespaces) {
      for (const obj of preview.objectsIn(ns)) {
        const name = obj.metadata.name;
        if (name && !rows.get(name)) rows.add(new ObjectNode(parent, place.entry.id, ns, name, obj));
      }
    }
    parent.previewRows = rows;
    return rows;
  }

  /** Whether `node` is a row of a preview (drawn as incomplete). */
  isPreviewRow(node: ObjectNode): boolean {
    return node.parent.previewRows?.get(node.name) === node;
  }

  private dropRows(parent: ObjectParent): void {
    const rows = parent.previewRows;
    if (!rows) return;
    parent.previewRows = undefined;
    for (const n of rows.clear()) {
      n.attached = false;
      this.refresh.forget(n);
    }
  }

  private hasRows(place: EntryPlace): boolean {
    if (place.watchNode.kind === 'namespace') return place.watchNode.container.size > 0;
    const node = place.node;
    if (node.container.size > 0) return true;
    for (const group of node.namespaces.values()) if (group.container.size > 0) return true;
    return false;
  }
}
