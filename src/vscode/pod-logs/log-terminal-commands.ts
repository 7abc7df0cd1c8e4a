import * as os from 'node:os';
import * as vscode from 'vscode';
import { LOG_RANGES, parseLogQuery, queryText, type LogKeyRequest } from '../../ui/logs';
import type { LogPseudoterminal } from './log-pseudoterminal';

export const LOG_FIND_COMMAND = 'kubeWatch.logs.find';
export const LOG_FILTER_COMMAND = 'kubeWatch.logs.filter';
export const LOG_FIND_NEXT_COMMAND = 'kubeWatch.logs.findNext';
export const LOG_FIND_PREVIOUS_COMMAND = 'kubeWatch.logs.findPrevious';
export const LOG_TIMESTAMPS_COMMAND = 'kubeWatch.logs.toggleTimestamps';
export const LOG_RANGE_COMMAND = 'kubeWatch.logs.range';
export const LOG_SAVE_COMMAND = 'kubeWatch.logs.saveAs';
/** True while the active terminal is a log terminal (keybindings and menus). */
export const LOG_TERMINAL_CONTEXT = 'kubeWatch.logTerminalActive';

/**
 * The log terminals open now, and the commands that act on the active one: search, filter,
 * next/previous match, timestamps, range, Save Log As. Thin: prompts and dialogs here, the rest
 * in the terminal's LogScreen.
 */
export class LogTerminals implements vscode.Disposable {
  private readonly open = new Map<LogPseudoterminal, vscode.Terminal>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    const on = (id: string, run: (pty: LogPseudoterminal) => unknown) =>
      vscode.commands.registerCommand(id, async () => {
        const pty = this.active();
        if (!pty) {
          void vscode.window.showInformationMessage('No log terminal is active: open one with Kube Watch: Follow Logs…, then run this command from it.');
          return;
        }
        try {
          await run(pty);
        } catch (err) {
          void vscode.window.showErrorMessage(`${pty.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    this.disposables.push(
      on(LOG_FIND_COMMAND, (pty) => this.request('find', pty)),
      on(LOG_FILTER_COMMAND, (pty) => this.request('filter', pty)),
      on(LOG_FIND_NEXT_COMMAND, (pty) => this.step(pty, 1)),
      on(LOG_FIND_PREVIOUS_COMMAND, (pty) => this.step(pty, -1)),
      on(LOG_TIMESTAMPS_COMMAND, (pty) => {
        const shown = pty.screen.toggleTimestamps();
        vscode.window.setStatusBarMessage(`${pty.name}: timestamps ${shown ? 'shown' : 'hidden'}`, 4000);
      }),
      on(LOG_RANGE_COMMAND, (pty) => this.request('range', pty)),
      on(LOG_SAVE_COMMAND, (pty) => this.request('save', pty)),
      vscode.window.onDidChangeActiveTerminal(() => this.updateContext()),
      vscode.window.onDidCloseTerminal((terminal) => {
        for (const [pty, t] of this.open) if (t === terminal) pty.close();
      }),
    );
  }

  /** Registers a terminal opened on `pty` and shows it. */
  add(pty: LogPseudoterminal, terminal: vscode.Terminal): void {
    this.open.set(pty, terminal);
    terminal.show(false);
    this.updateContext();
  }

  /** The terminal's screen stopped: forget it. */
  remove(pty: LogPseudoterminal): void {
    this.open.delete(pty);
    this.updateContext();
  }

  ptys(): LogPseudoterminal[] {
    return [...this.open.keys()];
  }

  /** What a key in a log terminal asked for, or the command of the same name. */
  async request(request: LogKeyRequest, pty: LogPseudoterminal): Promise<void> {
    if (request === 'find') return this.ask(pty, 'find');
    if (request === 'filter') return this.ask(pty, 'filter');
    if (request === 'range') return this.pickRange(pty);
    return this.save(pty);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    for (const [pty, terminal] of [...this.open]) {
      pty.close();
      terminal.dispose();
    }
    this.open.clear();
    void vscode.commands.executeCommand('setContext', LOG_TERMINAL_CONTEXT, false);
  }

  private active(): LogPseudoterminal | undefined {
    const terminal = vscode.window.activeTerminal;
    for (const [pty, t] of this.open) if (t === terminal) return pty;
    return this.open.size === 1 ? [...this.open.keys()][0] : undefined;
  }

  private updateContext(): void {
    const terminal = vscode.window.activeTerminal;
    const active = [...this.open.values()].some((t) => t === terminal);
    void vscode.commands.executeCommand('setContext', LOG_TERMINAL_CONTEXT, active);
  }

  private async ask(pty: LogPseudoterminal, what: 'find' | 'filter'): Promise<void> {
    const current = what === 'find' ? pty.screen.view.search : pty.screen.view.filter;
    const value = await vscode.window.showInputBox({
      title: what === 'find' ? `Search ${pty.name}` : `Filter ${pty.name}`,
      prompt:
        what === 'find'
          ? 'Text to find (case-insensitive), or /regular expression/flags; matches are highlighted, n and N move between them. Empty: no search.'
          : 'Keep only the lines that contain this text (case-insensitive), or match /regular expression/flags, as they arrive. Empty: every line.',
      value: current?.source ?? '',
      validateInput: (input) => parseLogQuery(input).error,
    });
    if (value === undefined) return;
    const error = what === 'find' ? pty.screen.find(value) : pty.screen.filter(value);
    if (error) {
      void vscode.window.showWarningMessage(error);
      return;
    }
    if (what === 'find' && pty.screen.view.search) this.sayMatches(pty);
  }

  private step(pty: LogPseudoterminal, delta: 1 | -1): Promise<void> | void {
    if (!pty.screen.view.search) return this.ask(pty, 'find');
    if (delta > 0) pty.screen.next();
    else pty.screen.previous();
    this.sayMatches(pty);
  }

  private sayMatches(pty: LogPseudoterminal): void {
    const search = pty.screen.view.search;
    if (!search) return;
    const { matches, current } = pty.screen.searchStatus();
    const where = matches === 0 ? 'no match yet' : `${current ?? '?'} of ${matches} matches`;
    vscode.window.setStatusBarMessage(`${pty.name}: search ${queryText(search)}: ${where}`, 5000);
  }

  private async pickRange(pty: LogPseudoterminal): Promise<void> {
    const now = pty.screen.range;
    const picked = await vscode.window.showQuickPick(
      LOG_RANGES.map((range) => ({ label: range.label, description: range.label === now.label ? 'now' : undefined, range })),
      { title: `Log range of ${pty.name}`, placeHolder: 'Where the log starts (the streams start over, and the lines shown so far are forgotten)' },
    );
    if (picked) await pty.screen.setRange(picked.range);
  }

  private async save(pty: LogPseudoterminal): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
    const fileName = `${pty.name.replace(/^logs /, '').replace(/[^A-Za-z0-9._-]+/g, '_')}.log`;
    const target = await vscode.window.showSaveDialog({ title: `Save Log As (${pty.name})`, defaultUri: vscode.Uri.joinPath(folder, fileName), filters: { 'Log files': ['log', 'txt'] } });
    if (!target) return;
    const text = pty.screen.savedText();
    try {
      await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
    } catch (err) {
      void vscode.window.showErrorMessage(`Could not save the log to ${target.fsPath}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const lines = text.split('\n').length - 1;
    void vscode.window.showInformationMessage(`Saved ${lines.toLocaleString('en-US')} lines of ${pty.name} to ${target.fsPath}.`);
  }
}
