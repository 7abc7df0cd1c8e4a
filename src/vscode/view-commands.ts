import * as vscode from 'vscode';
import { resourceTypeName } from '../informer';
import type { WatchConfig, WatchEntry } from '../manager';
import { isActive, type ResourcesTree, type ViewNode } from '../ui/tree';
import type { ResourceNode } from '../ui/tree/tree-node';
import { writeSetting } from './settings';
import { ADD_WATCH_COMMAND } from './tree-provider';

/** What the view's commands read of the watch manager (a WatchManager is one). */
export interface ViewCommandsSource {
  readonly configuration: WatchConfig;
  entries(): WatchEntry[];
}

/**
 * The commands on the Resources view's own rows (issue 23): a catalog type's watch added in one
 * click and removed again (`kubeWatch.addWatch`, `kubeWatch.removeWatch`, also on a resource row),
 * the catalog read again (`kubeWatch.refreshCatalog`), and a resource row's filter
 * (`kubeWatch.filter`, `kubeWatch.toggleWarningsOnly` on Events, `kubeWatch.clearFilter`).
 * Watches are settings (`kubeWatch.resources`), written where the user keeps them.
 */
export function registerViewCommands(manager: ViewCommandsSource, tree: ResourcesTree): vscode.Disposable {
  const addWatch = async (node?: ViewNode) => {
    if (node?.kind !== 'apiType') return vscode.commands.executeCommand('kubeWatch.chooseResources');
    const name = resourceTypeName(node.type);
    const resources = manager.configuration.resources;
    if (watchedSpellings(manager, node.type).length > 0) return;
    await writeSetting('resources', [...resources, name]);
    vscode.window.setStatusBarMessage(`$(add) Watching ${name}`, 3000);
  };

  const removeWatch = async (node?: ViewNode) => {
    const type = node?.kind === 'apiType' ? node.type : node?.kind === 'resource' ? typeOfResource(manager, node) : undefined;
    const spellings = type ? watchedSpellings(manager, type) : node?.kind === 'resource' ? [node.resource] : [];
    if (spellings.length === 0) return;
    await writeSetting(
      'resources',
      manager.configuration.resources.filter((r) => !spellings.includes(r)),
    );
    vscode.window.setStatusBarMessage(`$(remove) Stopped watching ${type ? resourceTypeName(type) : spellings.join(', ')}`, 3000);
  };

  const filter = async (node?: ViewNode) => {
    if (node?.kind !== 'resource') return;
    const current = tree.filterOf(node);
    const text = await vscode.window.showInputBox({
      title: `Filter ${node.label}`,
      prompt: 'Rows whose name, namespace, labels (or an Event\'s reason, object and message) contain this text. Empty: no text filter.',
      placeHolder: 'web, app=web, BackOff',
      value: current?.text ?? '',
    });
    if (text === undefined) return;
    tree.setFilter(node, { ...current, text: text.trim() || undefined });
  };

  const toggleWarningsOnly = (node?: ViewNode) => {
    if (node?.kind !== 'resource') return;
    const current = tree.filterOf(node);
    tree.setFilter(node, { ...current, warningsOnly: !current?.warningsOnly });
  };

  const clearFilter = (node?: ViewNode) => {
    if (node?.kind === 'resource' && isActive(tree.filterOf(node))) tree.setFilter(node, undefined);
  };

  return vscode.Disposable.from(
    vscode.commands.registerCommand(ADD_WATCH_COMMAND, addWatch),
    vscode.commands.registerCommand('kubeWatch.removeWatch', removeWatch),
    vscode.commands.registerCommand('kubeWatch.refreshCatalog', (node?: ViewNode) => {
      if (node?.kind === 'catalog') tree.catalog.reload(node.spec);
    }),
    vscode.commands.registerCommand('kubeWatch.filter', filter),
    vscode.commands.registerCommand('kubeWatch.toggleWarningsOnly', toggleWarningsOnly),
    vscode.commands.registerCommand('kubeWatch.clearFilter', clearFilter),
  );
}

/** The configured spellings that name `type` (`po`, `pods`; `deployments.apps`, `deploy`). */
function watchedSpellings(manager: ViewCommandsSource, type: { group: string; resource: string }): string[] {
  const name = resourceTypeName(type);
  const resolved = new Set(manager.entries().filter((e) => e.type?.group === type.group && e.type.resource === type.resource).map((e) => e.resource));
  return manager.configuration.resources.filter((r) => r === name || resolved.has(r));
}

function typeOfResource(manager: ViewCommandsSource, node: ResourceNode): { group: string; resource: string } | undefined {
  return manager.entries().find((e) => node.entryIds.includes(e.id))?.type;
}
