import * as vscode from 'vscode';
import type { Clock } from '../base';
import type { WatchConfig } from '../manager';
import { kubeconfigProblem } from '../ui/kubeconfig-problem';
import { OPEN_OBJECT_COMMAND } from './object-documents';
import { DrawnRows, ExpansionMemory, rowLook, ResourcesTree, WatchTreeModel, viewMessage, viewScope, type NodePresentation, type ResourcesTreeSource, type ViewNode, type WatchTreeModelOptions } from '../ui/tree';
import { DESCRIBE_COMMAND } from './describe-documents';

export type { TreeNode, ViewNode } from '../ui/tree';
export { entryIdsOf } from '../ui/tree';

/** The id of the Watched Resources view (package.json `contributes.views`). */
export const RESOURCES_VIEW_ID = 'kubeWatch.resources';
/** Shows the next page of a long child list; its argument is the "N more…" node. */
export const LOAD_MORE_COMMAND = 'kubeWatch.loadMore';
/** Adds the watch of a type of the "All resources" catalog; its argument is the type's row. */
export const ADD_WATCH_COMMAND = 'kubeWatch.addWatch';

/** A row of the watch model (a watch, its namespaces and objects), as opposed to the view's own rows around them. */
function isWatchRow(node: ViewNode): boolean {
  return node.kind === 'resource' || node.kind === 'namespace' || node.kind === 'object' || node.kind === 'more' || node.kind === 'message';
}

const COLLAPSIBLE: Record<NodePresentation['collapsible'], vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

/**
 * The Watched Resources tree over a WatchTreeModel: maps nodes to TreeItems (stable ids, themed
 * codicons, context values) and forwards the model's targeted refreshes. Tooltips are filled in
 * `resolveTreeItem`, on hover, so their statistics are current without refreshing the row.
 */
export class WatchTreeProvider implements vscode.TreeDataProvider<ViewNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ViewNode[] | undefined>();
  readonly onDidChangeTreeData: vscode.Event<ViewNode[] | undefined> = this.changed.event;
  private readonly subscription: { dispose(): void };
  private readonly rendered = new vscode.EventEmitter<void>();
  /**
   * Fires once VS Code has asked for the rows of the resource nodes a refresh named (it does so
   * right before it sends them to the window), or at once when a refresh names none: the moment
   * the status bar may draw and still agree with the tree (VS Code delays tree refreshes). Not
   * while the model holds a watch's row for its next refresh: the status bar draws the entries as
   * they are now, and that row would still show them as they were (V13); it fires after that refresh.
   */
  readonly onDidRender: vscode.Event<void> = this.rendered.event;
  /** Resource nodes named by the last refresh whose rows VS Code has not asked for yet. */
  private awaiting: Set<ViewNode> | undefined;

  /** What the user expanded, so that it is expanded again when it comes back (V14). */
  readonly expansion = new ExpansionMemory();
  /** What VS Code drew: a refresh names only the rows that changed (see DrawnRows for why). */
  private readonly drawn: DrawnRows<ViewNode>;

  constructor(
    readonly model: ResourcesTree,
    private readonly source: Pick<ResourcesTreeSource, 'entries'>,
  ) {
    this.drawn = new DrawnRows<ViewNode>({ lookOf: (node) => this.lookOf(node), childrenOf: (node) => this.model.getChildren(node) });
    this.subscription = model.onDidChange((named) => {
      const nodes = named && this.drawn.narrow(named);
      if (nodes?.length === 0) {
        if (!this.awaiting) this.fireRendered();
        return;
      }
      // The view's own rows (contexts, All resources, related rows) refresh on their own pace:
      // such a refresh says nothing of the watch rows, so it neither renders nor forgets them.
      if (nodes && !nodes.some(isWatchRow)) return this.changed.fire(nodes);
      const roots = nodes ? nodes.filter((n) => n.kind === 'resource') : model.watch.getChildren();
      // VS Code takes refreshes in order: the rows of this one come after those of any before it.
      // A refresh of no watch node leaves earlier awaited rows awaited (drawing now would run ahead of them).
      if (roots.length > 0) this.awaiting = new Set(roots);
      this.changed.fire(nodes);
      if (!this.awaiting) this.fireRendered();
    });
  }

  /** Asks the view for everything again (the roots appear or vanish as a whole). */
  refreshAll(): void {
    this.changed.fire(undefined);
  }

  /** The row as drawn: what VS Code shows of it, in one string (see rowLook). */
  private lookOf(node: ViewNode, p: NodePresentation = this.model.present(node)): string {
    return rowLook(node, p);
  }

  private collapsibleOf(node: ViewNode, p: NodePresentation): NodePresentation['collapsible'] {
    return p.collapsible === 'collapsed' && this.expansion.isExpanded(node.id) ? 'expanded' : p.collapsible;
  }

  getTreeItem(node: ViewNode): vscode.TreeItem {
    const p = this.model.present(node);
    const collapsible = this.collapsibleOf(node, p);
    this.drawn.drew(node, this.lookOf(node, p));
    const item = new vscode.TreeItem(p.label, COLLAPSIBLE[collapsible]);
    item.id = node.id;
    item.description = p.description;
    item.contextValue = p.contextValue;
    if (p.icon) item.iconPath = new vscode.ThemeIcon(p.icon.id, p.icon.color ? new vscode.ThemeColor(p.icon.color) : undefined);
    // A row of a first list in progress (contextValue 'listing') is not in the cache yet: nothing to open.
    if (node.kind === 'object' && p.contextValue !== 'listing') item.command = { command: OPEN_OBJECT_COMMAND, title: 'Open YAML', arguments: [node] };
    // A stale row re-renders every second (its stale time ticks), sooner than a busy extension
    // host may answer the lazy resolve: its tooltip comes with the row, so a hover is never empty.
    if (node.kind === 'object' && this.model.watch.stalenessOf(node.entryId)) this.resolveTreeItem(item, node);
    if (node.kind === 'more') item.command = { command: LOAD_MORE_COMMAND, title: 'Show More', arguments: [node] };
    // A related row of a watched type opens its YAML as any object row; one found by an ad-hoc watch, its description.
    if (node.kind === 'related') item.command = node.entryId ? { command: OPEN_OBJECT_COMMAND, title: 'Open YAML', arguments: [node] } : { command: DESCRIBE_COMMAND, title: 'Describe', arguments: [node] };
    // One click adds the watch of a type of the catalog.
    if (node.kind === 'apiType' && p.contextValue === 'apiType') item.command = { command: ADD_WATCH_COMMAND, title: 'Watch', arguments: [node] };
    if (node.kind === 'events') item.command = { command: 'kubeWatch.showEvents', title: 'Show Events', arguments: [node] };
    if (node.kind === 'workspace' && (node.level === 'file' || node.level === 'document')) item.command = { command: 'kubeWatch.manifests.reveal', title: 'Open', arguments: [node] };
    if (this.awaiting?.delete(node) && this.awaiting.size === 0) {
      this.awaiting = undefined;
      this.fireRendered();
    }
    return item;
  }

  private fireRendered(): void {
    if (!this.model.watch.watchRowPending) this.rendered.fire();
  }

  resolveTreeItem(item: vscode.TreeItem, node: ViewNode): vscode.TreeItem {
    const markdown = this.model.tooltip(node);
    if (markdown !== undefined) {
      const tooltip = new vscode.MarkdownString(markdown, true);
      tooltip.isTrusted = false;
      item.tooltip = tooltip;
    }
    return item;
  }

  getChildren(node?: ViewNode): ViewNode[] {
    // An unreadable kubeconfig empties the view so that its welcome content says why.
    if (!node && kubeconfigProblem(this.source.entries()) !== undefined) return [];
    const children = this.model.getChildren(node);
    if (node) this.drawn.listed(node, children);
    return children;
  }

  getParent(node: ViewNode): ViewNode | undefined {
    return this.model.getParent(node);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.rendered.dispose();
  }
}

/**
 * Creates the Watched Resources view (`kubeWatch.resources`) over `manager` and registers
 * `kubeWatch.loadMore`. `clock` must be the manager's (default: the system clock): it drives the
 * refresh throttle, and the "reconnecting in N s" countdowns compare it with the entries' retry times.
 * Disposing it disposes the view, the command, the provider and the model.
 */
/** The registered view and the model behind it (the model is exposed for tests inside VS Code). */
export interface TreeViewRegistration extends vscode.Disposable {
  readonly model: WatchTreeModel;
  /** The whole view: the watch rows and, around them, contexts, the catalog, related rows and filters. */
  readonly resources: ResourcesTree;
  readonly view: vscode.TreeView<ViewNode>;
  /** Shows the view's scope (description) and kubeconfig message again, after a settings change. */
  refreshScope(): void;
  /** See WatchTreeProvider.onDidRender: what the status bar draws with. */
  readonly onDidRender: vscode.Event<void>;
}

export function registerTreeView(
  manager: ResourcesTreeSource & { readonly configuration: WatchConfig },
  clock?: Clock,
  options: Omit<WatchTreeModelOptions, 'clock'> = {},
): TreeViewRegistration {
  const model = new WatchTreeModel(manager, { ...options, clock });
  const resources = new ResourcesTree(model, manager, clock);
  const provider = new WatchTreeProvider(resources, manager);
  const view = vscode.window.createTreeView(RESOURCES_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  let emptied = false;
  const showScope = () => {
    const entries = manager.entries();
    const message = viewMessage(manager.configuration, entries);
    if (view.message !== message) view.message = message;
    const description = viewScope(manager.configuration, entries).description;
    if (view.description !== description) view.description = description;
    const empty = kubeconfigProblem(entries) !== undefined;
    if (empty !== emptied) {
      emptied = empty;
      provider.refreshAll();
    }
  };
  showScope();
  const scopeWatch = manager.onDidChangeEntries(showScope);
  const expandWatch = view.onDidExpandElement((e) => {
    provider.expansion.expand(e.element.id);
    resources.expanded(e.element);
  });
  const collapseWatch = view.onDidCollapseElement((e) => {
    provider.expansion.collapse(e.element.id);
    resources.collapsed(e.element);
  });
  const loadMore = vscode.commands.registerCommand(LOAD_MORE_COMMAND, (node?: ViewNode) => {
    if (node?.kind === 'more') model.loadMore(node);
  });
  const disposables = vscode.Disposable.from(loadMore, scopeWatch, expandWatch, collapseWatch, view, provider, resources, model);
  return { model, resources, view, refreshScope: showScope, onDidRender: provider.onDidRender, dispose: () => disposables.dispose() };
}
