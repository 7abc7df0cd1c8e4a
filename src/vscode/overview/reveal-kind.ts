import type * as vscode from 'vscode';
import type { WatchEntry } from '../../manager';
import type { ViewNode } from '../../ui/tree';
import type { KindTarget } from './overview-panel';

/** What revealing a kind reads of the tree and the manager. */
export interface RevealKindParts {
  readonly resources: { getChildren(node?: ViewNode): ViewNode[] };
  readonly view: vscode.TreeView<ViewNode>;
  entry(id: string): WatchEntry | undefined;
  contextSpecOf(id: string): string | undefined;
}

/**
 * Where a count of the overview leads while there is no table: the tree's row of that kind on
 * that context, revealed, selected and expanded (under its context row when several are watched).
 */
export async function revealKind(parts: RevealKindParts, target: KindTarget): Promise<boolean> {
  const matches = (node: ViewNode) =>
    node.kind === 'resource' &&
    node.entryIds.some((id) => {
      const e = parts.entry(id);
      return e?.type?.kind === target.kind && e.type.group === target.group && parts.contextSpecOf(id) === target.context;
    });
  const roots = parts.resources.getChildren();
  const found = roots.find(matches) ?? roots.filter((r) => r.kind === 'context').flatMap((c) => parts.resources.getChildren(c)).find(matches);
  if (!found) return false;
  await parts.view.reveal(found, { select: true, focus: true, expand: true });
  return true;
}
