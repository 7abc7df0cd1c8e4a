import * as vscode from 'vscode';
import { webviewPage } from '../webview-page';
import type { TimerHandle } from '../../base';
import type { ColumnPrefs, HostMessage, TableAction, TableModel, WebviewMessage } from '../../ui/table';

export const TABLE_VIEW_TYPE = 'kubeWatch.table';

/** The command the tree's context menu runs for each of the table's keys (same confirmations, same write rules). */
export const ACTION_COMMANDS: Record<TableAction, string> = {
  describe: 'kubeWatch.describe',
  yaml: 'kubeWatch.openObject',
  edit: 'kubeWatch.editObject',
  logs: 'kubeWatch.followLogs',
  shell: 'kubeWatch.openShell',
  forward: 'kubeWatch.portForward',
  delete: 'kubeWatch.action.delete',
};

/** What a panel asks of the registration: remembered columns, and going to another kind. */
export interface TablePanelHost {
  saveColumns(key: string, prefs: ColumnPrefs): void;
  goto(from: TableModel, text: string): Promise<void>;
  kinds(from: TableModel): readonly string[];
}

/**
 * One table's webview panel: feeds its model's snapshots to the page while it is visible (the
 * model's throttled changes, and what the page asks at once), runs the keys' commands, and
 * stops everything when closed. Hidden, the page is dropped (no retained context) and the model
 * stops borrowing extra columns; shown again, the page says "ready" and is fed anew.
 */
export class TablePanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private modelSubscription: { dispose(): void } | undefined;
  private tick: TimerHandle | undefined;
  private disposed = false;
  /** The model's revision the page was last sent: its throttled notice after an answer already sent sends nothing more. */
  private postedRevision = -1;

  constructor(
    readonly panel: vscode.WebviewPanel,
    public model: TableModel,
    private readonly host: TablePanelHost,
    root: vscode.Uri,
    private readonly onClosed: (panel: TablePanel) => void,
  ) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [root] };
    panel.webview.html = html(panel.webview, root);
    this.subscriptions = [
      panel.webview.onDidReceiveMessage((m: WebviewMessage) => this.received(m)),
      panel.onDidChangeViewState(() => this.model.setVisible(panel.visible)),
      panel.onDidDispose(() => this.dispose()),
    ];
    this.attach();
  }

  /** Replaces the model (a table reused for another scope); the old one is disposed. */
  replaceModel(model: TableModel): void {
    const old = this.model;
    this.model = model;
    old.dispose();
    this.attach();
    this.post();
  }

  /** Sends the current snapshot now (while the page is shown and the model has read its objects). */
  post(): void {
    if (this.disposed || !this.panel.visible || !this.model.loaded) return;
    this.postedRevision = this.model.revision;
    const message: HostMessage = { ...this.model.snapshot(), kinds: this.host.kinds(this.model), sentAt: this.model.clock.now() };
    void this.panel.webview.postMessage(message);
    this.scheduleTick();
  }

  focusFilter(): void {
    void this.panel.webview.postMessage({ type: 'focus-filter' } satisfies HostMessage);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.tick?.cancel();
    this.tick = undefined;
    for (const s of this.subscriptions) s.dispose();
    this.modelSubscription?.dispose();
    this.model.dispose();
    this.onClosed(this);
    this.panel.dispose();
  }

  /** Timers and listeners held (0 once closed), for leak tests. */
  get openHandles(): number {
    return this.disposed ? 0 : (this.tick ? 1 : 0) + this.subscriptions.length + (this.modelSubscription ? 1 : 0) + this.model.openHandles;
  }

  private attach(): void {
    this.panel.title = this.model.snapshot().title;
    this.model.setVisible(this.panel.visible);
    this.modelSubscription?.dispose();
    this.modelSubscription = this.model.onDidChange(() => {
      if (this.model.revision !== this.postedRevision) this.post();
    });
  }

  /** While a watch is stale, the time since counts on: a snapshot each second. */
  private scheduleTick(): void {
    if (this.tick || !this.model.anyStale) return;
    this.tick = this.model.clock.setTimer(() => {
      this.tick = undefined;
      this.post();
    }, 1000);
  }

  private received(m: WebviewMessage): void {
    if (typeof m !== 'object' || m === null) return;
    const model = this.model;
    switch (m.type) {
      case 'ready':
        model.setVisible(this.panel.visible);
        break;
      case 'window':
        model.setViewport(m.start, m.count);
        break;
      case 'focus':
        model.setFocus(m.key);
        return;
      case 'sort':
        model.toggleSort(m.column);
        break;
      case 'filter':
        model.setFilter(m.text);
        break;
      case 'namespace':
        model.setNamespace(m.namespace);
        this.panel.title = model.snapshot().title;
        break;
      case 'columns':
        model.setColumnPrefs({ order: m.order, hidden: m.hidden });
        this.host.saveColumns(model.columnsKey, { order: m.order, hidden: m.hidden });
        break;
      case 'action':
        this.run(m.action, m.key);
        return;
      case 'goto':
        void this.host.goto(model, m.text);
        return;
      default:
        return;
    }
    this.post();
  }

  private run(action: TableAction, key: string): void {
    const row = this.model.row(key);
    if (!row) return;
    const arg = { kind: 'object', entryId: row.entryId, namespace: row.namespace, name: row.name };
    void vscode.commands.executeCommand(ACTION_COMMANDS[action], arg).then(undefined, (e: unknown) => {
      void vscode.window.showErrorMessage(`Could not ${action} ${row.name}: ${e instanceof Error ? e.message : String(e)}`);
    });
  }
}

/** The page: our stylesheet and nonce'd script from dist/webview, nothing else (the health panel's CSP). */
function html(webview: vscode.Webview, root: vscode.Uri): string {
  return webviewPage(webview, root, {
    title: 'Table',
    styles: ['table-style.css'],
    script: 'table.js',
    bodyAttributes: `data-vscode-context='{"preventDefaultContextMenuItems": true}'`,
    body: `<div class="toolbar" role="toolbar" aria-label="Table">
<span id="title"></span>
<select id="namespace" aria-label="Namespace" title="Namespace"></select>
<input id="filter" type="text" aria-label="Filter rows" placeholder="Filter (/): text, /regex/, -l app=web, ! to negate" spellcheck="false">
<span id="count" aria-live="polite"></span>
<button id="columns" title="Show, hide and move columns (c)">Columns…</button>
<button id="help" title="Keys (?)" aria-label="Keys">?</button>
</div>
<div id="banner" role="status" hidden></div>
<div id="problem" role="alert" hidden></div>
<div id="grid" role="grid" tabindex="0" aria-label="Table">
<div id="viewport"><div id="head" role="rowgroup"></div><div id="spacer"><div id="rows" role="rowgroup"></div></div></div>
</div>
<div id="help-box" class="dialog" role="dialog" aria-label="Keys" hidden></div>
<div id="column-box" class="dialog" role="dialog" aria-label="Columns" hidden></div>
<div id="goto" class="dialog" role="dialog" aria-label="Go to a kind" hidden><label>: <input id="goto-input" list="kinds" aria-label="Go to a kind (pods, deploy, svc…)" placeholder="pods, deploy, svc…" spellcheck="false"></label><datalist id="kinds"></datalist></div>
<div id="live" class="sr-only" aria-live="polite"></div>`,
  });
}
