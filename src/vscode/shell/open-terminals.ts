import * as vscode from 'vscode';
import type { ShellTerminal } from './shell-terminal';

/**
 * The stream terminals a command opened (shells, commands, debug containers): a terminal the user
 * closes ends its session; disposing ends every session and closes every terminal.
 */
export class OpenTerminals implements vscode.Disposable {
  private readonly open = new Map<ShellTerminal, vscode.Terminal>();
  private readonly closing = vscode.window.onDidCloseTerminal((terminal) => {
    for (const [pty, t] of this.open) if (t === terminal) pty.close();
  });

  /** Creates and shows the terminal of `pty`. */
  show(pty: ShellTerminal, options: Omit<vscode.ExtensionTerminalOptions, 'pty'>): void {
    const terminal = vscode.window.createTerminal({ ...options, pty });
    this.open.set(pty, terminal);
    terminal.show(false);
  }

  /** The session of `pty` ended for good (its terminal is closing). */
  ended(pty: ShellTerminal): void {
    this.open.delete(pty);
  }

  /** Stream sessions open now over every terminal. */
  openSessions(): number {
    return [...this.open.keys()].reduce((n, p) => n + p.openSessions, 0);
  }

  get size(): number {
    return this.open.size;
  }

  dispose(): void {
    this.closing.dispose();
    for (const [pty, terminal] of [...this.open]) {
      pty.close();
      terminal.dispose();
    }
    this.open.clear();
  }
}
