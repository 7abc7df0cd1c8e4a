import * as vscode from 'vscode';
import type { Clock } from '../../base';
import { decodeStorageObject, manifestObjects, releaseDetailsOf, releasesByNamespace, type HelmRelease, type ReleaseDetails, type RevisionRecord } from '../../helm';
import type { WatchManager } from '../../manager';
import { diffSideText, releaseDocumentText, releaseRowLabel, releaseTooltip, revisionRowLabel, type LiveState } from '../../ui/helm';
import { HelmReleaseSource } from './helm-release-source';
import { HelmRunner } from './helm-cli';

export const HELM_VIEW_ID = 'kubeWatch.helmReleases';
const SCHEME = 'kubewatch-helm';

type HelmNode =
  | { kind: 'context'; spec: string }
  | { kind: 'namespace'; spec: string; namespace: string }
  | { kind: 'release'; spec: string; release: HelmRelease }
  | { kind: 'revision'; spec: string; release: HelmRelease; revision: RevisionRecord }
  | { kind: 'note'; text: string };

/** The Helm Releases view, its documents (a revision, values, manifest; read-only) and commands. */
export function registerHelmReleases(manager: WatchManager, clock: Clock, log: (line: string) => void): vscode.Disposable {
  const source = new HelmReleaseSource(manager);
  const runner = new HelmRunner(log);
  const changed = new vscode.EventEmitter<void>();
  const docChanged = new vscode.EventEmitter<vscode.Uri>();
  const chartVersions = new Map<string, string>();
  const details = new Map<string, Promise<ReleaseDetails>>();

  const find = (spec: string, storage: string, ns: string, name: string) => source.releases(spec).find((r) => r.storage === storage && r.namespace === ns && r.name === name);
  const load = (spec: string, rel: HelmRelease, rev: RevisionRecord): Promise<ReleaseDetails> => {
    const key = `${spec}/${rel.storage}/${rev.namespace}/${rev.objectName}/${rev.uid ?? ''}`;
    let p = details.get(key);
    if (!p) {
      p = (async () => {
        const conn = manager.contextConnection(spec);
        if (!conn || !('transport' in conn)) throw new Error(conn?.problem ?? 'the context is not connected');
        const obj = await conn.transport.getJson<{ data?: Record<string, unknown> }>(`/api/v1/namespaces/${rev.namespace}/${rel.storage === 'secret' ? 'secrets' : 'configmaps'}/${rev.objectName}`, {}, AbortSignal.timeout(60_000));
        const d = releaseDetailsOf(decodeStorageObject(rel.storage, obj));
        if (rev.revision === rel.latest.revision) chartVersions.set(`${spec}/${rel.storage}/${rel.namespace}/${rel.name}`, `${d.chartName}-${d.chartVersion}`);
        return d;
      })();
      details.set(key, p);
      p.catch(() => details.delete(key));
    }
    return p;
  };
  const liveState = async (spec: string, ns: string, o: { apiVersion: string; kind: string; name: string; namespace: string }): Promise<LiveState> => {
    const conn = manager.contextConnection(spec);
    if (!conn || !('transport' in conn)) return { found: false, why: 'not connected' };
    const plural = `${o.kind.toLowerCase()}${o.kind.endsWith('s') ? 'es' : o.kind.endsWith('y') ? '' : 's'}`.replace(/ys$/, 'ies');
    const base = o.apiVersion.includes('/') ? `/apis/${o.apiVersion}` : `/api/${o.apiVersion}`;
    const cluster = ['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume', 'StorageClass'].includes(o.kind);
    try {
      const live = await conn.transport.getJson<{ metadata?: { creationTimestamp?: string }; status?: Record<string, unknown> }>(`${base}${cluster ? '' : `/namespaces/${o.namespace || ns}`}/${plural}/${o.name}`, {}, AbortSignal.timeout(30_000));
      const st = live.status ?? {};
      const ready = st.readyReplicas !== undefined || st.replicas !== undefined ? `${Number(st.readyReplicas ?? 0)}/${Number(st.replicas ?? 0)} ready` : 'present';
      return { found: true, summary: ready };
    } catch (err) {
      return { found: false, why: /404|not found/i.test(String((err as Error).message)) ? 'missing on the cluster' : `not read: ${(err as Error).message}` };
    }
  };

  const docs = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    onDidChange: docChanged.event,
    async provideTextDocumentContent(uri) {
      const [spec, storage, ns, name, revText, part] = uri.path.slice(1).split('/').map(decodeURIComponent);
      const rel = find(spec, storage, ns, name);
      const rev = rel?.revisions.find((r) => r.revision === Number(revText));
      if (!rel || !rev) return `# release ${ns}/${name} revision ${revText} is not on the cluster any more`;
      try {
        const d = await load(spec, rel, rev);
        if (part === 'values' || part === 'manifest') return diffSideText(d, part);
        const objects = await Promise.all(manifestObjects(d.manifest).map(async (object) => ({ object, live: await liveState(spec, ns, object) })));
        changed.fire();
        return releaseDocumentText(d, rel, source.contextName(spec), objects);
      } catch (err) {
        return `# could not open revision ${revText} of ${ns}/${name}: ${(err as Error).message}`;
      }
    },
  });
  const uriOf = (spec: string, rel: HelmRelease, revision: number, part: 'release' | 'values' | 'manifest') =>
    vscode.Uri.from({ scheme: SCHEME, path: `/${[spec, rel.storage, rel.namespace, rel.name, String(revision), part].map(encodeURIComponent).join('/')}`, query: part === 'release' ? '' : `${part}.yaml` });

  const provider: vscode.TreeDataProvider<HelmNode> = {
    onDidChangeTreeData: changed.event,
    getChildren(node?: HelmNode): HelmNode[] {
      const specs = source.specs();
      if (!node) return specs.length > 1 ? specs.map((spec) => ({ kind: 'context', spec })) : this.getChildren!({ kind: 'context', spec: specs[0] }) as HelmNode[];
      if (node.kind === 'context') {
        const releases = source.releases(node.spec);
        if (releases.length === 0) return [{ kind: 'note', text: source.problem(node.spec) ?? 'no Helm releases' }];
        return [...releasesByNamespace(releases).keys()].map((namespace) => ({ kind: 'namespace', spec: node.spec, namespace }));
      }
      if (node.kind === 'namespace') return source.releases(node.spec).filter((r) => r.namespace === node.namespace).map((release) => ({ kind: 'release', spec: node.spec, release }));
      if (node.kind === 'release') return [...node.release.revisions].reverse().map((revision) => ({ kind: 'revision', spec: node.spec, release: node.release, revision }));
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
          const row = releaseRowLabel(r, now, chartVersions.get(`${node.spec}/${r.storage}/${r.namespace}/${r.name}`));
          const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed);
          item.id = `helm/${node.spec}/${r.storage}/${r.namespace}/${r.name}`;
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
          item.id = `helm/${node.spec}/${node.release.storage}/${node.release.namespace}/${node.release.name}/${node.revision.revision}`;
          item.description = row.description;
          item.contextValue = 'helmRevision';
          item.command = { command: 'kubeWatch.helm.openRelease', title: 'Open Revision', arguments: [node] };
          return item;
        }
        case 'note':
          return new vscode.TreeItem(node.text);
      }
    },
  };
  const view = vscode.window.createTreeView(HELM_VIEW_ID, { treeDataProvider: provider });
  const sourceSub = source.onDidChange(() => changed.fire());

  const target = (node: { spec: string; release: HelmRelease }) => ({
    context: source.contextName(node.spec),
    kubeconfig: manager.configuration.kubeconfigPath ?? process.env.KUBECONFIG ?? undefined,
    namespace: node.release.namespace,
    release: node.release.name,
  });
  const releaseArg = (node?: HelmNode) => (node && (node.kind === 'release' || node.kind === 'revision') ? node : undefined);
  const pickRevision = async (rel: HelmRelease, prompt: string, exclude?: number) => {
    const items = [...rel.revisions].reverse().filter((r) => r.revision !== exclude).map((r) => ({ label: `rev ${r.revision}`, description: r.status, revision: r.revision }));
    return (await vscode.window.showQuickPick(items, { placeHolder: prompt }))?.revision;
  };

  const commands = [
    vscode.commands.registerCommand('kubeWatch.helm.openRelease', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (!n) return;
      const revision = n.kind === 'revision' ? n.revision.revision : n.release.latest.revision;
      const doc = await vscode.workspace.openTextDocument(uriOf(n.spec, n.release, revision, 'release'));
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
      await vscode.commands.executeCommand('vscode.diff', uriOf(n.spec, n.release, left, part), uriOf(n.spec, n.release, right, part), `${n.release.name}: ${part} rev ${left} ↔ rev ${right}`);
    }),
    vscode.commands.registerCommand('kubeWatch.helm.rollback', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (!n) return;
      const to = n.kind === 'revision' ? n.revision.revision : (n.release.stuck?.rollbackTo ?? (await pickRevision(n.release, 'Roll back to revision…', n.release.latest.revision)));
      if (to === undefined) return;
      await runner.run(target(n), { kind: 'rollback', revision: to }, n.release.latest.revision);
    }),
    vscode.commands.registerCommand('kubeWatch.helm.uninstall', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (n) await runner.run(target(n), { kind: 'uninstall' }, n.release.latest.revision);
    }),
    vscode.commands.registerCommand('kubeWatch.helm.upgradeWithValues', async (node?: HelmNode) => {
      const n = releaseArg(node);
      if (!n) return;
      const d = await load(n.spec, n.release, n.release.latest);
      const chart = await vscode.window.showInputBox({ prompt: `Chart reference to upgrade ${n.release.name} with (repo/name, oci://…, or a path)`, value: d.chartName });
      if (!chart) return;
      const values = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Use These Values', filters: { YAML: ['yaml', 'yml'] } });
      if (!values?.[0]) return;
      await runner.run(target(n), { kind: 'upgrade', chart, version: d.chartVersion || undefined, valuesFile: values[0].fsPath }, n.release.latest.revision);
    }),
  ];
  return vscode.Disposable.from(view, docs, changed, docChanged, { dispose: () => sourceSub.dispose() }, source, runner, ...commands);
}
