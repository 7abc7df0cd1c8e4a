import * as vscode from 'vscode';
import type { LogKeyRequest, LogScreen } from '../../ui/logs';

export interface LogPseudoterminalHooks {
  /** A key asked for a prompt or a dialog (search, filter, range, save) on this terminal. */
  readonly onRequest: (request: LogKeyRequest, pty: LogPseudoterminal) => void;
  /** Called once after the terminal is closed (by the user or by dispose) and its screen has stopped everything. */
  readonly onClosed: () => void;
}

/**
 * A log terminal: the pseudoterminal of a LogScreen (a pod's containers, or a workload's pods).
 * Thin: it forwards the screen's bytes, the terminal's size and the reader's keys. Invariant:
 * the screen runs only between `open` and `close`; closing stops every stream, timer and watch.
 */
export class LogPseudoterminal implements vscode.Pseudoterminal {
  private readonly writes = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writes.event;
  readonly screen: LogScreen;
  private opened = false;
  private closed = false;

  constructor(
    readonly name: string,
    makeScreen: (write: (text: string) => void) => LogScreen,
    private readonly hooks: LogPseudoterminalHooks,
  ) {
    this.screen = makeScreen((text) => {
      if (!this.closed) this.writes.fire(text);
    });
  }

  get activeStreams(): number {
    return this.screen.activeStreams;
  }

  get activeTimers(): number {
    return this.screen.activeTimers;
  }

  open(initialDimensions: vscode.TerminalDimensions | undefined): void {
    if (initialDimensions) this.setDimensions(initialDimensions);
    if (this.closed || this.opened) return;
    this.opened = true;
    this.screen.start();
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.screen.setDimensions(dimensions.columns, dimensions.rows);
  }

  handleInput(data: string): void {
    if (this.closed) return;
    const request = this.screen.input(data);
    if (request) this.hooks.onRequest(request, this);
  }

  /** The terminal was closed: stop the screen. Safe twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.writes.dispose();
    void this.screen.dispose().then(() => this.hooks.onClosed());
  }
}
