import * as vscode from 'vscode';
import type { ExecInteraction, ExecLoginRequest, ExecLoginSession } from '../connection/credentials/exec-interaction';
import { LineInput, asksForSecret, terminalText } from '../ui/login/line-input';

/**
 * Exec credential plugins that log in (W15) meet the user in a VS Code terminal: one per plugin
 * run, opened only when the plugin first writes (a plugin whose cached token is still good never
 * shows one), showing its prompts and passing the user's lines to it. The credential it prints
 * never reaches the terminal. Runs are single flight per user, so every watch waiting on a login
 * shares one terminal. Disposing closes every terminal still open.
 */
export class ExecLoginTerminals implements ExecInteraction, vscode.Disposable {
  private readonly terminals = new Set<vscode.Terminal>();

  open(request: ExecLoginRequest): ExecLoginSession {
    const written = new vscode.EventEmitter<string>();
    const closed = new vscode.EventEmitter<void>();
    const input = new LineInput();
    const listeners: ((text: string) => void)[] = [];
    let terminal: vscode.Terminal | undefined;
    let pending = '';
    let ended = false;
    const pty: vscode.Pseudoterminal = {
      onDidWrite: written.event,
      onDidClose: closed.event,
      open: () => {
        written.fire(`\x1b[2mThe exec plugin \`${request.plugin}\` of user "${request.user}" (${request.server}) asks you to log in. Answer it here; Kube Watch waits up to 3 minutes.\x1b[0m\r\n\r\n${pending}`);
        pending = '';
      },
      close: () => {
        if (terminal) this.terminals.delete(terminal);
      },
      handleInput: (keys) => {
        if (ended) {
          closed.fire();
          return;
        }
        const { echo, lines } = input.feed(keys);
        if (echo) written.fire(echo);
        for (const line of lines) for (const l of listeners) l(line);
      },
    };
    const write = (text: string) => {
      if (!terminal) {
        pending += text;
        terminal = vscode.window.createTerminal({ name: `Kube Watch: log in (${request.plugin})`, pty, iconPath: new vscode.ThemeIcon('key') });
        this.terminals.add(terminal);
        terminal.show();
      } else written.fire(text);
    };
    return {
      show: (text) => {
        input.hidden = asksForSecret(text);
        write(terminalText(text));
      },
      onInput: (listener) => listeners.push(listener),
      end: (outcome) => {
        ended = true;
        listeners.length = 0;
        if (!terminal) return;
        write(outcome.ok ? '\r\n\x1b[32mLogged in: Kube Watch has the credential (it is not shown). Press any key to close this terminal.\x1b[0m\r\n' : `\r\n\x1b[31mThe login did not complete: ${outcome.reason}. Press any key to close this terminal.\x1b[0m\r\n`);
      },
    };
  }

  dispose(): void {
    for (const t of this.terminals) t.dispose();
    this.terminals.clear();
  }
}
