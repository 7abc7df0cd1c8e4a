import * as vscode from 'vscode';
import { webviewPage } from './webview-page';
import type { HealthRecorder } from '../health';
import type { Clock } from '../base';
import type { WatchEntry } from '../manager';
import { HealthFeed, HealthViewModel, healthMarkdown, type HealthSnapshot, type HostMessage, type WebviewMessage } from '../ui/health';

/** What the panel reads of the manager (a WatchManager is one). */
export interface HealthPanelSource {
  entries(): WatchEntry[];
}

/** The registered panel command; disposing closes the panel and stops its feed. */
export interface HealthPanelRegistration extends vscode.Disposable {
  /** Opens (or reveals) the panel, scrolled to a watch when one is named. */
  open(entryId?: string): void;
  isPanelOpen(): boolean;
  /** Timers the panel's feed runs (0 while closed). */
  openTimers(): number;
  /** Listeners the panel holds (on the recorder and on its webview); 0 while closed. */
  openSubscriptions(): number;
  /** The last snapshot sent to the webview, if any (for tests). */
  lastSnapshot(): HealthSnapshot | undefined;
  readonly recorder: HealthRecorder;
}

const VIEW_TYPE = 'kubeWatch.health';

/**
 * The Watch Health webview panel (`kubeWatch.showHealth`). Thin: the recorder records at all
 * times; while the panel is open and visible, a HealthFeed posts snapshots to it. Closing or
 * hiding it stops the feed (no timer, no listener); the webview is rebuilt when shown again.
 * The webview loads only from dist/webview, under a CSP that allows its nonce'd script alone.
 */
export function registerHealthPanel(manager: HealthPanelSource, recorder: HealthRecorder, clock: Clock, extensionUri: vscode.Uri): HealthPanelRegistration {
  const model = new HealthViewModel(recorder, () => manager.entries());
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  let panel: vscode.WebviewPanel | undefined;
  let feed: HealthFeed | undefined;
  let panelSubscriptions: vscode.Disposable[] = [];
  let last: HealthSnapshot | undefined;
  let pendingFocus: string | undefined;

  const post = (message: HostMessage) => void panel?.webview.postMessage(message);

  const copyMarkdown = async () => {
    await vscode.env.clipboard.writeText(healthMarkdown(model.snapshot(clock.now())));
    vscode.window.setStatusBarMessage('$(check) Copied the watch health summary as Markdown', 3000);
  };

  const closed = () => {
    feed?.stop();
    feed = undefined;
    for (const d of panelSubscriptions.splice(0)) d.dispose();
    panel = undefined;
  };

  const open = (entryId?: string) => {
    if (panel) {
      panel.reveal(undefined, false);
      if (entryId) post({ type: 'focus', id: entryId });
      return;
    }
    pendingFocus = entryId;
    panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'Watch Health', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [root],
    });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'kube-watch.svg');
    panel.webview.html = html(panel.webview, root);
    const current = panel;
    feed = new HealthFeed(
      recorder,
      (now) => model.snapshot(now),
      (snapshot) => {
        last = snapshot;
        post(snapshot);
      },
      clock,
    );
    const running = feed;
    panelSubscriptions = [
      current.webview.onDidReceiveMessage((message: WebviewMessage) => {
        if (message?.type === 'ready') {
          // The webview (re)loaded: feed it from now on, with a snapshot at once.
          if (running.running) running.sendNow();
          else if (current.visible) running.start();
          if (pendingFocus) post({ type: 'focus', id: pendingFocus });
          pendingFocus = undefined;
        } else if (message?.type === 'copy-markdown') {
          void copyMarkdown().catch(() => undefined);
        }
      }),
      current.onDidChangeViewState(() => {
        // Hidden: VS Code drops the webview's page; it says "ready" again when shown.
        if (!current.visible) running.stop();
      }),
      current.onDidDispose(closed),
    ];
  };

  const commands = [
    vscode.commands.registerCommand('kubeWatch.showHealth', (arg?: unknown) => open(entryIdOf(arg))),
    vscode.commands.registerCommand('kubeWatch.copyHealthMarkdown', copyMarkdown),
  ];

  return {
    open,
    recorder,
    isPanelOpen: () => panel !== undefined,
    openTimers: () => feed?.openTimers ?? 0,
    openSubscriptions: () => (feed?.openSubscriptions ?? 0) + panelSubscriptions.length,
    lastSnapshot: () => last,
    dispose() {
      const p = panel;
      closed();
      p?.dispose();
      for (const c of commands) c.dispose();
    },
  };
}

/** The page: our stylesheets and nonce'd script from dist/webview, nothing else. */
function html(webview: vscode.Webview, root: vscode.Uri): string {
  return webviewPage(webview, root, {
    title: 'Watch Health',
    styles: ['uPlot.min.css', 'health-style.css'],
    script: 'health.js',
    body: `<div class="toolbar"><h1>Watch Health</h1><span id="summary"></span><button id="copy" title="Put this summary on the clipboard as Markdown, for a bug report">Copy as Markdown</button></div>
<div id="legend"></div>
<p id="empty" hidden>No watch has been recorded yet.</p>
<main id="watches"></main>`,
  });
}

/** The entry a command argument names: a tree node with `entryId` or `entryIds`, or an id. */
function entryIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg !== 'object' || arg === null) return undefined;
  const node = arg as { entryId?: unknown; entryIds?: unknown };
  if (typeof node.entryId === 'string') return node.entryId;
  if (Array.isArray(node.entryIds) && typeof node.entryIds[0] === 'string') return node.entryIds[0];
  return undefined;
}
