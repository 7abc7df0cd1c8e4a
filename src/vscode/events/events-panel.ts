import * as vscode from 'vscode';
import { webviewPage } from '../webview-page';
import type { Clock, TimerHandle } from '../../base';
import type { EventsFeeds } from '../../events';
import { defaultFilter, eventsSnapshot, type EventsFilter, type EventsSnapshot, type EventsSubjectFilter, type WebviewMessage } from '../../ui/events';

const VIEW_TYPE = 'kubeWatch.events';
/** Least time between two snapshots while events pour in. */
const THROTTLE_MS = 250;

/** The Events panel: one webview showing one context's feed, filtered. */
export interface EventsPanel extends vscode.Disposable {
  /** Opens (or reveals) the panel on `spec`'s feed; with `subject`, filtered to it (and what it owns). */
  open(spec: string, title: string, subject?: EventsSubjectFilter): void;
  isOpen(): boolean;
  /** The last snapshot sent (for tests). */
  lastSnapshot(): EventsSnapshot | undefined;
}

/**
 * Thin: the feed records at all times once started; while the panel is open, its changes post a
 * snapshot (at most one per THROTTLE_MS). The webview loads only from dist/webview under a CSP
 * that allows its nonce'd script alone (as the Watch Health panel's).
 */
export function createEventsPanel(feeds: EventsFeeds, clock: Clock, extensionUri: vscode.Uri, maxBytes: () => number): EventsPanel {
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  let panel: vscode.WebviewPanel | undefined;
  let subscriptions: vscode.Disposable[] = [];
  let timer: TimerHandle | undefined;
  let last: EventsSnapshot | undefined;
  let shown: { spec: string; title: string; subject?: EventsSubjectFilter; filter: EventsFilter } = { spec: '', title: '', filter: defaultFilter() };

  const send = () => {
    timer?.cancel();
    timer = undefined;
    const feed = feeds.peek(shown.spec);
    if (!panel || !feed) return;
    last = eventsSnapshot(feed, { title: shown.title, now: clock.now(), filter: shown.filter, subject: shown.subject, maxBytes: maxBytes() });
    void panel.webview.postMessage(last);
  };
  const soon = () => {
    if (!timer) timer = clock.setTimer(send, THROTTLE_MS);
  };

  const closed = () => {
    timer?.cancel();
    timer = undefined;
    for (const d of subscriptions.splice(0)) d.dispose();
    panel = undefined;
  };

  const open = (spec: string, title: string, subject?: EventsSubjectFilter) => {
    feeds.feed(spec);
    shown = { spec, title, subject, filter: subject ? defaultFilter() : shown.filter };
    if (panel) {
      panel.title = panelTitle(title, subject);
      panel.reveal(undefined, false);
      send();
      return;
    }
    panel = vscode.window.createWebviewPanel(VIEW_TYPE, panelTitle(title, subject), vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [root] });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'kube-watch.svg');
    panel.webview.html = html(panel.webview, root);
    const current = panel;
    subscriptions = [
      current.webview.onDidReceiveMessage((message: WebviewMessage) => {
        if (message?.type === 'ready') send();
        else if (message?.type === 'filter' && message.filter) {
          shown = { ...shown, filter: { text: String(message.filter.text ?? ''), namespace: String(message.filter.namespace ?? ''), warningsOnly: message.filter.warningsOnly === true } };
          send();
        } else if (message?.type === 'clear-subject') {
          shown = { ...shown, subject: undefined };
          current.title = panelTitle(shown.title, undefined);
          send();
        }
      }),
      { dispose: feeds.onDidChange((spec) => spec === shown.spec && soon()).dispose },
      current.onDidDispose(closed),
    ];
  };

  return {
    open,
    isOpen: () => panel !== undefined,
    lastSnapshot: () => last,
    dispose() {
      const p = panel;
      closed();
      p?.dispose();
    },
  };
}

function panelTitle(context: string, subject: EventsSubjectFilter | undefined): string {
  return subject ? `Events: ${subject.kind} ${subject.name}` : `Events: ${context || 'current context'}`;
}

/** The page: our stylesheet and nonce'd script from dist/webview, nothing else (the Watch Health panel's CSP). */
function html(webview: vscode.Webview, root: vscode.Uri): string {
  return webviewPage(webview, root, {
    title: 'Events',
    styles: ['events-style.css'],
    script: 'events.js',
    body: `<div class="toolbar" role="search">
<h1>Events</h1>
<input type="search" id="filter-text" placeholder="Filter: reason, message, object" aria-label="Filter events by text">
<select id="filter-namespace" aria-label="Namespace"></select>
<label><input type="checkbox" id="filter-warnings"> Warnings only</label>
</div>
<p class="facts" id="scope" aria-live="polite"></p>
<p class="facts" id="memory"></p>
<p id="problem" hidden></p>
<p id="subject" hidden><span id="subject-text"></span> <button id="subject-clear">Show all events</button></p>
<table role="grid" aria-label="Events, warnings first, one row per object">
<thead><tr role="row"><th role="columnheader">Object</th><th role="columnheader">Warnings</th><th role="columnheader">Count</th><th role="columnheader">Last seen</th></tr></thead>
<tbody id="rows"></tbody>
</table>`,
  });
}
