import * as vscode from 'vscode';
import { ObjectIndex, type FoundObject, type ObjectIndexSource } from '../ui/find';
import type { ResourcesTree, ViewNode } from '../ui/tree';
import { OPEN_OBJECT_COMMAND } from './object-documents';

/** Reveals and selects an object's row in the Resources tree: `{ entryId, namespace, name }`. */
export const REVEAL_OBJECT_COMMAND = 'kubeWatch.revealObject';

/** How often an open Find Object picks up what the watches changed. */
const LIVE_MS = 1000;

type Item = vscode.QuickPickItem & { key: string };

/**
 * `kubeWatch.findObject` (issue 23, part 4; k9s's `/`): a quick pick over every object in the
 * watched caches, matched fuzzily by VS Code on the name, on "kind · namespace · context" and on
 * the labels, kept current while it is open (at most once a second, the active item kept).
 * Picking one reveals and selects its row, also in a collapsed namespace, a later page, or under
 * a filter that hid it (the filter is cleared). Closing it stops its index and timer.
 */
export function registerFindObject(manager: ObjectIndexSource, tree: ResourcesTree, view: vscode.TreeView<ViewNode>): vscode.Disposable {
  let open: { pick: vscode.QuickPick<Item>; index: ObjectIndex; timer: NodeJS.Timeout } | undefined;

  const close = () => {
    if (!open) return;
    clearInterval(open.timer);
    open.index.dispose();
    const { pick } = open;
    open = undefined;
    pick.dispose();
  };

  const reveal = async (found: Pick<FoundObject, 'entryId' | 'namespace' | 'name'>) => {
    const node = tree.revealable(found.entryId, found.namespace, found.name);
    if (!node) {
      // Not in the tree (any more): its YAML still says what it is, or that it is gone.
      await vscode.commands.executeCommand(OPEN_OBJECT_COMMAND, { entryId: found.entryId, namespace: found.namespace, name: found.name });
      return;
    }
    if (!view.visible) await vscode.commands.executeCommand('kubeWatch.resources.focus');
    // First its parents are expanded (their rows fetched), then the row is selected: a single
    // reveal into collapsed parents can leave the selection unset in VS Code 1.139.
    await view.reveal(node, { select: false, focus: false, expand: false });
    await view.reveal(node, { select: true, focus: true, expand: false });
  };

  const find = () => {
    close();
    const index = new ObjectIndex(manager);
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = 'Kube Watch: Find Object';
    pick.placeholder = 'Name, kind, namespace or label of any watched object';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    const render = () => {
      const active = pick.activeItems[0]?.key;
      const items = index.items().map((o): Item => ({ key: o.key, label: o.label, description: o.description, detail: o.detail }));
      pick.items = items.length > 0 ? items : [{ key: '', label: 'No object is watched yet', description: 'watch a type from All resources' }];
      const again = active === undefined ? undefined : pick.items.find((i) => i.key === active);
      if (again) pick.activeItems = [again];
    };
    render();
    const timer = setInterval(() => {
      if (index.changed) render();
    }, LIVE_MS);
    open = { pick, index, timer };
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0];
      const found = picked && index.get(picked.key);
      close();
      if (found) void reveal(found).catch((err: unknown) => void vscode.window.showErrorMessage(`Kube Watch: ${err instanceof Error ? err.message : String(err)}`));
    });
    pick.onDidHide(close);
    pick.show();
  };

  return vscode.Disposable.from(
    vscode.commands.registerCommand('kubeWatch.findObject', find),
    // The same reveal for another view's links (a Helm release's objects): an object of a watch entry.
    vscode.commands.registerCommand(REVEAL_OBJECT_COMMAND, (target?: { entryId: string; namespace: string; name: string }) => (target ? reveal(target) : undefined)),
    { dispose: close },
  );
}
