import * as vscode from 'vscode';
import type { Clock, TimerHandle } from '../../base';
import type { PortForwardSet } from '../../port-forward';
import { forwardRow } from '../../ui/port-forward/forward-rows';

/** The id of the Port Forwards view (package.json `contributes.views`). */
export const PORT_FORWARDS_VIEW_ID = 'kubeWatch.portForwards';

/** A row of the view: a forward by id. */
export interface ForwardNode {
  readonly forwardId: string;
}

/**
 * The Port Forwards view: one row per forward (its address, target, pod, state, counts and
 * bytes), redrawn at most twice a second while traffic flows. The view shows while any forward
 * exists (context key `kubeWatch.hasPortForwards`).
 */
export class PortForwardView implements vscode.TreeDataProvider<ForwardNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, ForwardNode>();
  private pending: TimerHandle | undefined;
  private readonly subscription: { dispose(): void };
  private hadAny = false;

  constructor(
    private readonly forwards: PortForwardSet,
    private readonly clock: Clock,
  ) {
    this.subscription = forwards.onDidChange((c) => {
      if (c.type === 'changed') return this.soon();
      if (c.type === 'event') return;
      this.refresh();
    });
  }

  getTreeItem(node: ForwardNode): vscode.TreeItem {
    const entry = this.forwards.get(node.forwardId);
    if (!entry) return new vscode.TreeItem('stopped');
    const row = forwardRow(entry.forward.label, entry.contextName, entry.forward.status, this.clock.now());
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.forwardId;
    item.description = row.description;
    const tooltip = new vscode.MarkdownString(row.tooltip);
    tooltip.isTrusted = false;
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(row.icon.id, row.icon.color ? new vscode.ThemeColor(row.icon.color) : undefined);
    item.contextValue = row.contextValue;
    return item;
  }

  getChildren(node?: ForwardNode): ForwardNode[] {
    if (node) return [];
    const ids = this.forwards.list().map((e) => e.id);
    for (const id of [...this.nodes.keys()]) if (!ids.includes(id)) this.nodes.delete(id);
    return ids.map((id) => {
      let n = this.nodes.get(id);
      if (!n) this.nodes.set(id, (n = { forwardId: id }));
      return n;
    });
  }

  private soon(): void {
    if (this.pending) return;
    this.pending = this.clock.setTimer(() => this.refresh(), 500);
  }

  private refresh(): void {
    this.pending?.cancel();
    this.pending = undefined;
    const any = this.forwards.size > 0;
    if (any !== this.hadAny) {
      this.hadAny = any;
      void vscode.commands.executeCommand('setContext', 'kubeWatch.hasPortForwards', any);
    }
    this.changed.fire(undefined);
  }

  /** Timers it holds (the redraw throttle): 0 or 1. */
  get timers(): number {
    return this.pending ? 1 : 0;
  }

  dispose(): void {
    this.pending?.cancel();
    this.pending = undefined;
    this.subscription.dispose();
    this.changed.dispose();
  }
}
