import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { ResourceCatalog } from '../../catalog';
import { releasesByNamespace, type HelmRelease, type ReleaseTarget, type RevisionRecord } from '../../helm';
import type { WatchManager } from '../../manager';
import { releaseRowLabel, releaseTooltip, revisionRowLabel } from '../../ui/helm';
import { HelmDocuments, helmDocUri } from './helm-documents';
import { HelmReleaseSource } from './helm-release-source';
import { HelmRunner } from './helm-cli';

export const HELM_VIEW_ID = 'kubeWatch.helmReleases';

type HelmNode =
  | { kind: 'context'; spec: string }
  | { kind: 'namespace'; spec: string; namespace: string }
  | { kind: 'release'; spec: string; release: HelmRelease }
  | { kind: 'revision'; spec: string; release: HelmRelease; revision: RevisionRecord }
  | { kind: 'note'; text: string; id?: string; tooltip?: string; warning?: boolean };

/** The Helm Releases view, its documents (a revision, values, manifest; read-only) and commands. */
export function registerHelmReleases(manager: WatchManager, clock: Clock, log: (line: string) => void, catalog: ResourceCatalog): vscode.Disposable {
  const source = new HelmReleaseSource(manager);
  const runner = new HelmRunner(log);
  const changed = new vscode.EventEmitter<void>();
  const chartVersions = new Map<string, string>();
  const releaseKey = (spec: string, r: HelmRelease) => `${spec}/${r.storage}/${r.namespace}/${r.name}`;
  const find = (spec: string, storage: string, ns: string, name: string) => source.releases(spec).find((r) => r.storage === storage && r.namespace === ns && r.name === name);
  const documents = new HelmDocuments(manager, catalog, { find, contextName: (spec) => source.contextName(spec) }, (spec, rel, d) => {
    const key = releaseKey(spec, rel);
    const version = `${d.chartName}-${d.chartVersion}`;
    if (chartVersions.get(key) === version) return;
    chartVersions.set(key, version);
    changed.fire();
  });

  const provider: vscode.TreeDataProvider<HelmNode> = {
    onDidChangeTreeData: changed.event,
    getChildren(node?: HelmNode): HelmNode[] {
      const specs = source.specs();
      if (!node) return specs.length > 1 ? specs.map((spec) => ({ kind: 'context', spec })) : (this.getChildren!({ kind: 'context', spec: specs[0] }) as HelmNode[]);
      if (node.kind === 'context') {
        const releases = source.releases(node.spec);
        if (releases.length === 0) return [{ kind: 'note', text: source.problem(node.spec) ?? 'no Helm releases' }];
        return [...releasesByNamespace(releases).keys()].map((namespace) => ({ kind: 'namespace', spec: node.spec, namespace }));
      }
      if (node.kind === 'namespace') return source.releases(node.spec).filter((r) => r.namespace === node.namespace).map((release) => ({ kind: 'release', spec: node.spec, release }));
      if (node.kind === 'release') {
        const revisions: HelmNode[] = [...node.release.revisions].reverse().map((revision) => ({ kind: 'revision', spec: node.spec, release: node.release, revision }));
        const stuck = node.release.stuck;
        // A stuck release says so first, in words, where the user looks: what usually unsticks it.
        return stuck ? [{ kind: 'note', text: stuck.text, tooltip: stuck.text, warning: true, id: `${releaseKey(node.spec, node.release)}/stuck` }, ...revisions] : revisions;
      }
      return [];
    },
    getTreeItem(node: HelmNode): vscode.TreeItem {
      const now = clock.now();
      switch (node.kind) {
        case 'context': {
          const item = new vscode.TreeItem(source.contextName(node.spec) || 'current context', vscode.TreeItemCollapsibleState.Expanded);
          item.id = `helm/${node.spec}`;
          return item;
        }
        case 'namespace': {
          const item = new vscode.TreeItem(node.namespace, vscode.TreeItemCollapsibleState.Expanded);
          item.id = `helm/${node.spec}/${node.namespace}`;
          item.iconPath = new vscode.ThemeIcon('symbol-namespace');
          return item;
        }
        case 'release': {
          const r = node.release;
          const row = releaseRowLabel(r, now, chartVersions.get(releaseKey(node.spec, r)));
          const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed);
          item.id = `helm/${releaseKey(node.spec, r)}`;
          item.description = row.description;
          item.tooltip = new vscode.MarkdownString(releaseTooltip(r));
          item.contextValue = r.stuck ? 'helmRelease.stuck' : 'helmRelease';
          item.iconPath = new vscode.ThemeIcon(r.stuck ? 'warning' : r.latest.status === 'failed' ? 'error' : 'package', r.stuck || r.latest.status === 'failed' ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined);
          item.command = { command: 'kubeWatch.helm.openRelease', title: 'Open Release', arguments: [node] };
          return item;
        }
        case 'revision': {
          const row = revisionRowLabel(node.revision, now);
          const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
          item.id = `helm/${releaseKey(node.spec, node.release)}/${node.revision.revision}`;
          item.description = row.description;
          item.contextValue = 'helmRevision';
          item.command = { command: 'kubeWatch.helm.openRelease', title: 'Open Revision', arguments: [node] };
          return item;
        }
        case 'note': {
          const item = new vscode.TreeItem(node.text);
          if (node.id) item.id = `helm/${node.id}`;
          if (node.tooltip) item.tooltip = node.tooltip;
          if (node.warning) item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
          return item;
        }
      }
    },
  };
  const view = vscode.window.createTreeView(HELM_VIEW_ID, { treeDataProvider: provider });
  const sourceSub = source.onDidChange(() => changed.fire());

  /** The release's context and the kubeconfig files the manager read it from (never the setting as it reads now). */
  const target = (node: { spec: string; release: HelmRelease }): ReleaseTarget | undefined => {
    const origin = manager.contextKubeconfig(node.spec);
    if (!origin) return undefined;
    return { context: origin.contextName, kubeconfigFiles: origin.kubeconfigFiles, namespace: node.release.namespace, release: node.release.name };
  };
  const run = async (node: { spec: string; release: HelmRelease }, op: Parameters<HelmRunner['run']>[1]) => {
    const t = target(node);
    if (!t) return void vscode.window.showErrorMessage(`Kube Watch: the context of ${node.release.namespace}/${node.release.name} is not connected now; nothing was run.`);
    await runner.run(t, op, node.release.latest.revision);
  };
  const releaseArg = (node?: HelmNode) => (node && (node.kind === 'release' || node.kind === 'revision') ? node : undefined);
  const pickRevision = async (rel: HelmRelease, prompt: string, exclude?: number) => {
    const items = [...rel.revisions].reverse().filter((r) => r.revision !== exclude).map((r) => ({ label: `rev ${r.revision}`, description: r.status, revision: r.revision }));
    return (await vscode.window.showQuickPick(items, { placeHolder: prompt }))?.revision;
  };
  const uri = (spec: string, rel: HelmRelease, revision: number, part: 'release' | 'values' | 'manifest') => helmDocUri({ spec, storage: rel.storage, namespace: rel.namespace, name: rel.name, revision, part });

  const commands = [
    vscode.commands.registerCommand('kubeWatch.helm.openRelease', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (!n) return;
      const revision = n.kind === 'revision' ? n.revision.revision : n.release.latest.revision;
      const doc = await vscode.workspace.openTextDocument(uri(n.spec, n.release, revision, 'release'));
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
    vscode.commands.registerCommand('kubeWatch.helm.diffRevisions', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (!n || n.release.revisions.length < 2) return void vscode.window.showInformationMessage('This release has a single revision: nothing to compare.');
      const right = n.kind === 'revision' ? n.revision.revision : n.release.latest.revision;
      const left = await pickRevision(n.release, `Compare revision ${right} with…`, right);
      if (left === undefined) return;
      const part = (await vscode.window.showQuickPick(['values', 'manifest'], { placeHolder: 'Compare values or manifest?' })) as 'values' | 'manifest' | undefined;
      if (!part) return;
      await vscode.commands.executeCommand('vscode.diff', uri(n.spec, n.release, left, part), uri(n.spec, n.release, right, part), `${n.release.name}: ${part} rev ${left} ↔ rev ${right}`);
    }),
    vscode.commands.registerCommand('kubeWatch.helm.rollback', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (!n) return;
      const to = n.kind === 'revision' ? n.revision.revision : (n.release.stuck?.rollbackTo ?? (await pickRevision(n.release, 'Roll back to revision…', n.release.latest.revision)));
      if (to !== undefined) await run(n, { kind: 'rollback', revision: to });
    }),
    vscode.commands.registerCommand('kubeWatch.helm.uninstall', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (n) await run(n, { kind: 'uninstall' });
    }),
    vscode.commands.registerCommand('kubeWatch.helm.upgradeWithValues', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (!n) return;
      const d = await documents.load(n.spec, n.release, n.release.latest);
      const chart = await vscode.window.showInputBox({ prompt: `Chart reference to upgrade ${n.release.name} with (repo/name, oci://…, or a path)`, value: d.chartName });
      if (!chart) return;
      const values = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Use These Values', filters: { YAML: ['yaml', 'yml'] } });
      if (values?.[0]) await run(n, { kind: 'upgrade', chart, version: d.chartVersion || undefined, valuesFile: values[0].fsPath });
    }),
  ];
  return vscode.Disposable.from(view, documents, changed, { dispose: () => sourceSub.dispose() }, source, runner, ...commands);
}
