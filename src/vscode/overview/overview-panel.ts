import * as vscode from 'vscode';
import { webviewPage } from '../webview-page';
import type { Clock, Disposable, TimerHandle } from '../../base';
import type { WatchConfig, WatchEntry } from '../../manager';
import type { MetricsHub } from '../../metrics';
import { overviewSnapshot, type OverviewSnapshot, type OverviewWebviewMessage } from '../../ui/overview';

/** What the overview reads of the manager (a WatchManager is one). */
export interface OverviewSource {
  readonly configuration: WatchConfig;
  entries(): WatchEntry[];
  contextSpecOf(id: string): string | undefined;
  onDidChangeEntries(listener: () => void): Disposable;
}

/** What a count opens: a kind of a context. */
export interface KindTarget {
  readonly context: string;
  readonly group: string;
  readonly kind: string;
  readonly resource: string;
}

export interface OverviewRegistration extends vscode.Disposable {
  open(spec: string): void;
  /** The contexts whose overview is open now. */
  openContexts(): string[];
  /** The last snapshot sent for a context (for tests). */
  lastSnapshot(spec: string): OverviewSnapshot | undefined;
}

const VIEW_TYPE = 'kubeWatch.overview';
/** While visible, the page is drawn again at least this often (counts, ages, usage). */
const REFRESH_MS = 2000;

/**
 * The cluster overview (`kubeWatch.showOverview`): one webview panel per context, from the
 * watches already running (no request of its own but the nodes' metrics while visible). A count
 * opens its kind through `openKind` (its table), else focuses the tree. Hidden or closed: no
 * timer, no listener, no showing.
 */
export function registerOverview(manager: OverviewSource, hub: MetricsHub, clock: Clock, extensionUri: vscode.Uri, openKind?: (target: KindTarget) => unknown): OverviewRegistration {
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const panels = new Map<string, { panel: vscode.WebviewPanel; stop(): void; last?: OverviewSnapshot }>();

  const open = (spec: string) => {
    const existing = panels.get(spec);
    if (existing) return existing.panel.reveal(undefined, false);
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, `Overview: ${titleOf(spec)}`, vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [root] });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'kube-watch.svg');
    panel.webview.html = html(panel.webview, root);
    let timer: TimerHandle | undefined;
    let entriesSub: Disposable | undefined;
    let nodes: Disposable | undefined;
    let metricsSub: Disposable | undefined;
    const record: { panel: vscode.WebviewPanel; stop(): void; last?: OverviewSnapshot } = { panel, stop: () => {} };
    const send = () => {
      timer?.cancel();
      const entries = manager.entries().filter((e) => manager.contextSpecOf(e.id) === spec);
      const snapshot = overviewSnapshot({ context: spec, title: entries.find((e) => e.context)?.context ?? titleOf(spec), entries, metrics: hub.cluster(spec), now: clock.now() });
      record.last = snapshot;
      void panel.webview.postMessage(snapshot);
      timer = clock.setTimer(send, REFRESH_MS);
    };
    const start = () => {
      if (entriesSub) return send();
      entriesSub = manager.onDidChangeEntries(() => send());
      metricsSub = hub.onDidChange((e) => e.context === spec && send());
      nodes = hub.cluster(spec).show({ namespaces: [], nodes: true });
      send();
    };
    const stop = () => {
      timer?.cancel();
      timer = undefined;
      entriesSub?.dispose();
      metricsSub?.dispose();
      nodes?.dispose();
      entriesSub = metricsSub = nodes = undefined;
    };
    record.stop = stop;
    const subscriptions = [
      panel.webview.onDidReceiveMessage((m: OverviewWebviewMessage) => {
        if (m?.type === 'ready') start();
        else if (m?.type === 'open') void openTarget({ context: spec, group: m.group, kind: m.kind, resource: m.resource });
      }),
      panel.onDidChangeViewState(() => !panel.visible && stop()),
      panel.onDidDispose(() => {
        stop();
        for (const s of subscriptions) s.dispose();
        panels.delete(spec);
      }),
    ];
    panels.set(spec, record);
  };

  const openTarget = async (target: KindTarget) => {
    if (openKind) return openKind(target);
    return vscode.commands.executeCommand('kubeWatch.resources.focus');
  };

  const pickContext = async (): Promise<string | undefined> => {
    const specs = manager.configuration.contexts.length > 0 ? manager.configuration.contexts : [''];
    if (specs.length === 1) return specs[0];
    const picked = await vscode.window.showQuickPick(specs.map((s) => ({ label: titleOf(s), spec: s })), { title: 'Cluster Overview', placeHolder: 'Which context?' });
    return picked?.spec;
  };

  const command = vscode.commands.registerCommand('kubeWatch.showOverview', async (arg?: unknown) => {
    const spec = specOf(arg) ?? (await pickContext());
    if (spec !== undefined) open(spec);
  });

  return {
    open,
    openContexts: () => [...panels.keys()],
    lastSnapshot: (spec) => panels.get(spec)?.last,
    dispose() {
      command.dispose();
      for (const p of [...panels.values()]) {
        p.stop();
        p.panel.dispose();
      }
      panels.clear();
    },
  };
}

function titleOf(spec: string): string {
  return spec || 'current context';
}

/** The context a command argument names: a context row (`spec`), an object with `context`, or a spec. */
function specOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const o = arg as { kind?: string; spec?: unknown; context?: unknown };
    if (o.kind === 'context' && typeof o.spec === 'string') return o.spec;
    if (typeof o.context === 'string' && o.kind !== 'context') return o.context;
  }
  return undefined;
}

/** The page: our stylesheet and nonce'd script from dist/webview, nothing else. */
function html(webview: vscode.Webview, root: vscode.Uri): string {
  return webviewPage(webview, root, {
    title: 'Cluster Overview',
    styles: ['overview-style.css'],
    script: 'overview.js',
    body: `<h1 id="title">Cluster overview</h1>
<p id="health" class="health"></p>
<h2>Objects</h2>
<div id="counts" role="list"></div>
<h2 id="warnings-heading">Warnings in the last hour</h2>
<div id="warnings"></div>
<h2>Nodes</h2>
<div id="nodes"></div>`,
  });
}
