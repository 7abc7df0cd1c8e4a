import { Emitter, systemClock, type Clock, type Disposable } from '../../base';
import { ResourceCatalog, type CatalogSource } from '../../catalog';
import { resourceTypeName, type KubeObject } from '../../informer';
import type { WatchEntry } from '../../manager';
import { RelatedObjects, hasRelated, type RelatedOwner, type RelatedSource } from '../../ownership';
import { objectTooltip, presentObject, type NodePresentation } from './node-presentation';
import { filteredLabel, isActive, matchesFilter, type NodeFilter } from './node-filter';
import { compareNames, pageOf } from './object-container';
import { RefreshThrottle } from './refresh-throttle';
import { isAttached, type NamespaceNode, type ObjectNode, type ObjectParent, type ResourceNode, type TreeNode } from './tree-node';
import { ApiGroupNode, ApiTypeNode, CatalogNode, ContextNode, EventsNode, NoteNode, RelatedNode, type ViewNode } from './view-nodes';
import { presentApiGroup, presentApiType, presentCatalog, presentContext, presentEvents, presentNote } from './view-presentation';
import type { WatchTreeModel, WatchTreeSource } from './watch-tree-model';
import type { WorkspaceRows } from './workspace-rows';

/** What the Resources view needs of the watch manager (a WatchManager is one). */
export type ResourcesTreeSource = WatchTreeSource & RelatedSource & CatalogSource;

/** The Events row of each context, when the events feed is wired (src/vscode/events). */
export interface EventsRows {
  description(spec: string): string;
  onDidChange(listener: (spec: string) => void): Disposable;
}

/** Least clock time between two refreshes of the view's own rows (catalog, related rows, filters). */
const THROTTLE_MS = 100;

/**
 * The Resources view, VS Code-free: the watch rows of a WatchTreeModel, and around them what
 * issue 23 adds. With several contexts, a top row per context with its own health (part 6);
 * after each context's resource rows, "All resources" by API group from discovery (part 3);
 * under a workload's or a Service's row, the objects it owns or selects (part 5); a filter per
 * resource row (part 4). Stable node instances per id, as the watch rows.
 *
 * Invariants: the watch model's refreshes pass through at once; the view's own are throttled
 * (THROTTLE_MS); a related row's ad-hoc watch runs only while its owner is expanded; after
 * `dispose()` nothing runs.
 */
export class ResourcesTree implements Disposable {
  readonly related: RelatedObjects;
  readonly catalog: ResourceCatalog;
  private readonly clock: Clock;
  private readonly filters = new Map<string, NodeFilter>();
  private readonly contexts = new Map<string, ContextNode>();
  private readonly catalogs = new Map<string, CatalogNode>();
  private readonly eventsNodes = new Map<string, EventsNode>();
  private eventsRows: EventsRows | undefined;
  private readonly nodes = new Map<string, ApiGroupNode | ApiTypeNode | RelatedNode | NoteNode>();
  private readonly owners = new Map<string, ObjectNode | RelatedNode>();
  private readonly changes = new Emitter<ViewNode[] | undefined>();
  private readonly dirty = new Set<ViewNode>();
  private readonly throttle: RefreshThrottle;
  private readonly subscriptions: Disposable[];
  private workspace: WorkspaceRows | undefined;

  constructor(
    readonly watch: WatchTreeModel,
    private readonly source: ResourcesTreeSource,
    clock?: Clock,
  ) {
    this.clock = clock ?? systemClock;
    this.related = new RelatedObjects(source);
    this.catalog = new ResourceCatalog(source, this.clock);
    this.throttle = new RefreshThrottle(this.clock, THROTTLE_MS, () => this.flush());
    this.subscriptions = [
      watch.onDidChange((nodes) => this.changes.fire(nodes && this.withContexts(nodes))),
      this.related.onDidChange((keys) => this.mark(keys.map((k) => this.owners.get(k)))),
      this.catalog.onDidChange(() => this.mark([...this.catalogs.values()])),
      // What is watched changed: the catalog's eyes and the contexts' health follow.
      source.onDidChangeEntries(() => this.mark([...this.catalogs.values(), ...this.contexts.values()])),
    ];
  }

  /** Fires with the rows to draw again, or undefined for all. */
  onDidChange(listener: (nodes: ViewNode[] | undefined) => void): Disposable {
    return this.changes.on(listener);
  }

  // ---- structure ----

  /** The Workspace section (issue 31): its rows after the watches'. Set once, by the manifests' adapter. */
  setWorkspace(rows: WorkspaceRows): Disposable {
    this.workspace = rows;
    let shown = Boolean(rows.root());
    // The section coming or going redraws the roots; else its rows, at the view's own pace.
    return rows.onDidChange(() => {
      if (shown !== Boolean(rows.root())) {
        shown = !shown;
        this.changes.fire(undefined);
      } else if (shown) this.mark([rows.rootNode]);
    });
  }

  getChildren(node?: ViewNode): ViewNode[] {
    if (!node) return this.withWorkspace(this.roots());
    if (node.kind === 'workspace') return this.workspace?.children(node) ?? [];
    switch (node.kind) {
      case 'context':
        return this.contextChildren(node.context, node.spec, node);
      case 'catalog':
        return this.catalogChildren(node);
      case 'events':
        return [];
      case 'apiGroup':
        return (this.catalog.state(node.parent.spec).groups?.find((g) => g.name === node.group)?.types ?? []).map((type) => {
          const id = `${node.id}/${type.resource}`;
          const row = this.stable(id, () => new ApiTypeNode(id, type, node));
          row.type = type;
          return row;
        });
      case 'resource':
      case 'namespace':
        return this.filteredChildren(node);
      case 'object':
      case 'related':
        return this.relatedChildren(node);
      default:
        return this.watch.getChildren(node as TreeNode);
    }
  }

  getParent(node: ViewNode): ViewNode | undefined {
    if (node.kind === 'workspace') return node.parent;
    switch (node.kind) {
      case 'resource':
        return this.severalContexts() ? this.contexts.get(node.context) : undefined;
      case 'context':
        return undefined;
      case 'catalog':
      case 'events':
      case 'apiGroup':
      case 'apiType':
      case 'related':
      case 'note':
        return node.parent;
      default:
        return this.watch.getParent(node);
    }
  }

  // ---- rows ----

  present(node: ViewNode): NodePresentation {
    const now = this.clock.now();
    if (node.kind === 'workspace') return this.workspace?.present(node, now) ?? { label: '', collapsible: 'none', contextValue: 'workspace' };
    switch (node.kind) {
      case 'context':
        return presentContext(node.context, this.entriesOf(node.context), now, this.severalContexts());
      case 'catalog':
        return presentCatalog(this.catalog.state(node.spec));
      case 'events':
        return presentEvents(this.eventsRows?.description(node.spec) ?? '');
      case 'apiGroup': {
        const types = this.catalog.state(node.parent.spec).groups?.find((g) => g.name === node.group)?.types ?? [];
        return presentApiGroup(node.group, types, types.filter((t) => this.isWatched(node.parent.context, t)).length);
      }
      case 'apiType': {
        const context = node.parent.parent.context;
        return presentApiType(node.type, this.isWatched(context, node.type), this.heldCount(context, node.type));
      }
      case 'note':
        return presentNote(node.text, node.tone);
      case 'related': {
        const row = presentObject(node.object, node.name, node.objectKind, now);
        return { ...row, collapsible: hasRelated(node.objectKind) ? 'collapsed' : 'none', contextValue: node.entryId ? row.contextValue : 'related' };
      }
      case 'resource': {
        const filter = this.filters.get(node.id);
        // Under its context's row, the resource row need not repeat the context ("pods (staging)").
        const suffix = ` (${node.context || 'current context'})`;
        const shown = (label: string) => filteredLabel(this.severalContexts() && label.endsWith(suffix) ? label.slice(0, -suffix.length) : label, filter);
        const row = this.watch.present(node, this.shows(filter), shown(node.label));
        const events = this.kindOfResource(node) === 'Event' ? '.events' : '';
        return { ...row, label: shown(row.label), contextValue: `${row.contextValue}${events}${isActive(filter) ? '.filtered' : ''}` };
      }
      case 'namespace':
        return this.watch.present(node, this.shows(this.filters.get(node.parent.id)));
      case 'object': {
        const row = this.watch.present(node);
        return hasRelated(this.watch.kindOf(node.entryId, node.object)) ? { ...row, collapsible: 'collapsed' } : row;
      }
      default:
        return this.watch.present(node);
    }
  }

  tooltip(node: ViewNode): string | undefined {
    if (node.kind === 'workspace') return undefined;
    switch (node.kind) {
      case 'related':
        return objectTooltip(node.object, node.objectKind, this.clock.now());
      case 'context':
      case 'catalog':
      case 'events':
      case 'apiGroup':
      case 'note':
        return undefined;
      case 'apiType':
        return `**${node.type.kind}** (\`${resourceTypeName(node.type)}\`, ${node.type.group || 'core'}/${node.type.version})\n\nClick to watch it; *Stop Watching* removes it again.`;
      default:
        return this.watch.tooltip(node);
    }
  }

  // ---- filters (part 4) ----

  filterOf(node: ResourceNode): NodeFilter | undefined {
    return this.filters.get(node.id);
  }

  /** Sets (or, with undefined or an empty filter, clears) the filter of a resource row. */
  setFilter(node: ResourceNode, filter: NodeFilter | undefined): void {
    if (isActive(filter)) this.filters.set(node.id, filter);
    else this.filters.delete(node.id);
    this.changes.fire([node]);
  }

  /** What a filter lets through, for the counts of its rows; undefined when none is in force. */
  private shows(filter: NodeFilter | undefined): ((obj: KubeObject) => boolean) | undefined {
    return isActive(filter) ? (obj) => matchesFilter(obj, filter) : undefined;
  }

  // ---- find (part 4) ----

  /**
   * The row of an object of a watch, made visible under its parents: its page shown, a filter
   * that hides it cleared. Undefined when the tree does not hold it.
   */
  revealable(entryId: string, namespace: string, name: string): ObjectNode | undefined {
    const node = this.watch.findObject(entryId, namespace, name);
    if (!node || !isAttached(node)) return undefined;
    const resource = node.parent.kind === 'resource' ? node.parent : node.parent.parent;
    const filter = this.filters.get(resource.id);
    if (filter && !matchesFilter(node.object, filter)) this.setFilter(resource, undefined);
    showPageOf(node.parent, node, this.watch.pageSize);
    if (node.parent.kind === 'namespace' && !node.parent.watch) {
      const sorted = [...resource.namespaces.values()].sort((a, b) => compareNames(a.namespace, b.namespace));
      const index = sorted.indexOf(node.parent);
      if (index >= 0) resource.namespacePages = Math.max(resource.namespacePages, Math.ceil((index + 1) / this.watch.pageSize));
    }
    return node;
  }

  /** Shows an Events row per context, drawn again when its feed changes (one wiring, from extension.ts). */
  showEvents(rows: EventsRows): void {
    this.eventsRows = rows;
    this.subscriptions.push(rows.onDidChange((spec) => this.mark([this.eventsNodes.get(spec)])));
    this.changes.fire(undefined);
  }

  /** A row was expanded: the catalog is read again (a CRD may have come since). */
  expanded(node: ViewNode): void {
    if (node.kind === 'catalog') this.catalog.refreshIfOld(node.spec);
  }

  /** A row was collapsed: an owner's related rows stop watching (their ad-hoc watches end). */
  collapsed(node: ViewNode): void {
    if (node.kind !== 'object' && node.kind !== 'related') return;
    this.related.release(node.id);
    for (const key of [...this.owners.keys()]) if (key === node.id || key.startsWith(`${node.id}>`)) this.owners.delete(key);
    for (const key of [...this.nodes.keys()]) if (key.startsWith(`${node.id}>`)) this.nodes.delete(key);
  }

  /** The context row of a context when several are shown, else undefined. */
  contextNode(context: string): ContextNode | undefined {
    return this.severalContexts() ? this.contexts.get(context) : undefined;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.throttle.dispose();
    this.related.dispose();
    this.catalog.dispose();
    this.changes.dispose();
  }

  // ---- internals ----

  private withWorkspace(roots: ViewNode[]): ViewNode[] {
    const section = this.workspace?.root();
    return section ? [...roots, section] : roots;
  }

  private severalContexts(): boolean {
    return this.source.configuration.contexts.length > 1;
  }

  private roots(): ViewNode[] {
    const resources = this.watch.getChildren() as ResourceNode[];
    if (!this.severalContexts()) {
      if (resources.length === 0) return []; // the welcome content speaks
      const spec = this.source.configuration.contexts[0] ?? '';
      return this.contextChildren(resources[0].context, spec, undefined);
    }
    return this.source.configuration.contexts.map((spec) => {
      const id = `context:${spec}`;
      let node = this.contexts.get(spec);
      if (!node) this.contexts.set(spec, (node = new ContextNode(id, spec, spec)));
      return node;
    });
  }

  private contextChildren(context: string, spec: string, parent: ContextNode | undefined): ViewNode[] {
    const resources = (this.watch.getChildren() as ResourceNode[]).filter((r) => !parent || r.context === context);
    const id = `catalog:${spec}`;
    let catalog = this.catalogs.get(spec);
    if (!catalog || catalog.parent !== parent || catalog.context !== context) this.catalogs.set(spec, (catalog = new CatalogNode(id, context, spec, parent)));
    if (!this.eventsRows) return [...resources, catalog];
    let events = this.eventsNodes.get(spec);
    if (!events || events.parent !== parent || events.context !== context) this.eventsNodes.set(spec, (events = new EventsNode(`events:${spec}`, context, spec, parent)));
    return [...resources, events, catalog];
  }

  private catalogChildren(node: CatalogNode): ViewNode[] {
    const state = this.catalog.state(node.spec);
    if (!state.groups) return [this.note(node, state.problem ?? 'reading discovery…', state.problem ? 'error' : 'busy')];
    return state.groups.map((g) => {
      const id = `${node.id}/${g.name || 'core'}`;
      return this.stable(id, () => new ApiGroupNode(id, g.name, node));
    });
  }

  /** A resource or namespace row's children, with the resource row's filter applied. */
  private filteredChildren(node: ResourceNode | NamespaceNode): ViewNode[] {
    const resource = node.kind === 'resource' ? node : node.parent;
    const filter = this.filters.get(resource.id);
    if (!isActive(filter)) return this.watch.getChildren(node);
    const pageSize = this.watch.pageSize;
    if (node.kind === 'resource' && node.layout !== 'objects') {
      const groups = [...node.namespaces.values()].filter((ns) => ns.watch || [...ns.container.values()].some((o) => matchesFilter(o.object, filter)));
      if (groups.length === 0) return [this.note(node, 'nothing matches the filter', 'neutral')];
      return pageOf(groups.sort((a, b) => compareNames(a.namespace, b.namespace)), node.namespacePages, pageSize, node.moreNamespaces);
    }
    const rows = node.container.sortedNodes().filter((o) => matchesFilter(o.object, filter));
    if (rows.length === 0) return node.container.size === 0 ? this.watch.getChildren(node) : [this.note(node, 'nothing matches the filter', 'neutral')];
    return pageOf(rows, node.container.pages, pageSize, node.container.more);
  }

  /** The objects related to a row (what it owns, a Service's Pods), or a note saying why none are shown. */
  private relatedChildren(node: ObjectNode | RelatedNode): ViewNode[] {
    const owner = this.ownerOf(node);
    if (!owner) return [];
    this.owners.set(node.id, node);
    const answer = this.related.related(owner);
    if (answer.items.length === 0) return [this.note(node, answer.note ?? 'nothing related', answer.note && /listing/.test(answer.note) ? 'busy' : 'neutral')];
    return answer.items.map((item) => {
      const id = `${node.id}>${item.kind}/${item.object.metadata.name ?? ''}`;
      const row = this.stable(id, () => new RelatedNode(id, node, item.object, item.kind, item.entryId, item.type, owner.spec, owner.context));
      row.object = item.object;
      row.entryId = item.entryId;
      row.type = item.type;
      return row;
    });
  }

  private ownerOf(node: ObjectNode | RelatedNode): RelatedOwner | undefined {
    if (node.kind === 'related') {
      return { key: node.id, spec: node.spec, context: node.context, namespace: node.namespace, kind: node.objectKind, name: node.name, uid: node.object.metadata.uid };
    }
    const spec = this.source.contextSpecOf(node.entryId);
    const kind = this.watch.kindOf(node.entryId, node.object);
    if (spec === undefined || !kind) return undefined;
    const context = this.source.entry(node.entryId)?.context ?? '';
    return { key: node.id, spec, context, namespace: node.namespace, kind, name: node.name, uid: node.object.metadata.uid };
  }

  private note(parent: ViewNode, text: string, tone: NoteNode['tone']): NoteNode {
    const id = `${parent.id}#note`;
    const note = this.stable(id, () => new NoteNode(id, parent, text, tone));
    note.text = text;
    note.tone = tone;
    return note;
  }

  private stable<T extends ApiGroupNode | ApiTypeNode | RelatedNode | NoteNode>(id: string, make: () => T): T {
    let node = this.nodes.get(id) as T | undefined;
    if (!node) this.nodes.set(id, (node = make()));
    return node;
  }

  private isWatched(context: string, type: { group: string; resource: string }): boolean {
    const name = resourceTypeName(type);
    return this.entriesOf(context).some((e) => (e.type ? e.type.group === type.group && e.type.resource === type.resource : e.resource === name));
  }

  /** How many objects the watches of a type hold in a context; undefined while none of them has listed. */
  private heldCount(context: string, type: { group: string; resource: string }): number | undefined {
    const informers = this.entriesOf(context).filter((e) => e.type?.group === type.group && e.type.resource === type.resource && e.state.synced).flatMap((e) => (e.informer ? [e.informer] : []));
    return informers.length === 0 ? undefined : informers.reduce((n, i) => n + i.store.size, 0);
  }

  private entriesOf(context: string): WatchEntry[] {
    const several = this.severalContexts();
    return this.source.entries().filter((e) => !several || e.context === context);
  }

  private kindOfResource(node: ResourceNode): string | undefined {
    for (const id of node.entryIds) {
      const kind = this.source.entry(id)?.type?.kind;
      if (kind) return kind;
    }
    return undefined;
  }

  /** The watch model's refreshes, with the context rows of the resource rows named (their health). */
  private withContexts(nodes: TreeNode[]): ViewNode[] {
    if (!this.severalContexts()) return nodes;
    const out: ViewNode[] = [...nodes];
    for (const n of nodes) if (n.kind === 'resource') {
      const context = this.contexts.get(n.context);
      if (context && !out.includes(context)) out.push(context);
    }
    return out;
  }

  private mark(nodes: readonly (ViewNode | undefined)[]): void {
    for (const n of nodes) if (n) this.dirty.add(n);
    if (this.dirty.size > 0) this.throttle.request();
  }

  private flush(): void {
    const nodes = [...this.dirty];
    this.dirty.clear();
    if (nodes.length > 0) this.changes.fire(nodes);
  }
}

/** Shows as many pages of `parent`'s rows as needed for `node` to be on one. */
function showPageOf(parent: ObjectParent, node: ObjectNode, pageSize: number): void {
  const index = parent.container.sortedNodes().indexOf(node);
  if (index >= 0) parent.container.pages = Math.max(parent.container.pages, Math.ceil((index + 1) / pageSize));
}
