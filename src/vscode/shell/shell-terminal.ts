import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { KubeTransport } from '../../informer';
import { streamRefusalWords, type StreamId } from '../../actions';
import { ShellSession, StreamRefused, type SessionEnd, type ShellTarget, type TerminalSession } from '../../shell';
import { sessionEndText, sessionHeader } from '../../ui/shell/session-text';

export interface ShellTerminalOptions {
  readonly transport: KubeTransport;
  readonly clock: Clock;
  /** A command without a TTY (Run Command); default an interactive shell. */
  readonly command?: readonly string[];
  /** The kubeconfig user, for the words of a refusal; never a credential. */
  readonly user?: string;
  readonly onClosed: () => void;
  /** Another kind of session than a shell over exec (a debug container's attach); default a ShellSession. */
  readonly session?: (size: { columns: number; rows: number } | undefined) => TerminalSession;
  /** Which stream a refusal names; default `shell`. */
  readonly stream?: StreamId;
}

/**
 * A terminal over one exec at a time. A shell: keystrokes go to its stdin, the terminal's size
 * to its TTY; when the session ends the terminal says how (the exit code, or the drop, how long
 * it lasted and what became of the pod) and Enter starts a new session (in the pod that replaced
 * it, if one did). A command: its output, then its exit code. Closing the terminal ends the session.
 */
export class ShellTerminal implements vscode.Pseudoterminal {
  private readonly writer = new vscode.EventEmitter<string>();
  private readonly closer = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writer.event;
  readonly onDidClose = this.closer.event;
  private session: TerminalSession | undefined;
  private size: { columns: number; rows: number } | undefined;
  private waitingForEnter = false;
  private closed = false;
  private target: ShellTarget;

  constructor(
    target: ShellTarget,
    private readonly options: ShellTerminalOptions,
  ) {
    this.target = target;
  }

  /** Sessions open now (0 or 1). */
  get openSessions(): number {
    return this.session?.open ? 1 : 0;
  }

  open(dimensions: vscode.TerminalDimensions | undefined): void {
    if (dimensions) this.size = { columns: dimensions.columns, rows: dimensions.rows };
    void this.begin();
  }

  handleInput(data: string): void {
    if (this.waitingForEnter) {
      if (data === '\r') {
        this.waitingForEnter = false;
        void this.begin();
      }
      return;
    }
    this.session?.writeStdin(data);
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.size = { columns: dimensions.columns, rows: dimensions.rows };
    this.session?.resize(dimensions.columns, dimensions.rows);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.session?.dispose();
    this.session = undefined;
    this.options.onClosed();
  }

  private async begin(): Promise<void> {
    const interactive = !this.options.command;
    const session: TerminalSession = this.options.session?.(this.size) ?? new ShellSession(this.target, { transport: this.options.transport, clock: this.options.clock, tty: interactive, command: this.options.command, initialSize: this.size });
    this.session = session;
    // What happens before the stream opens (a debug container added, waiting for it), dimmed.
    session.onProgress?.((line) => !this.closed && this.writer.fire(`\x1b[2m${line}\x1b[0m\r\n`));
    // Output that comes before the header (a shell's first prompt) waits for it.
    let held: string[] | undefined = [];
    const write = (text: string) => (held ? held.push(text) : this.writer.fire(text));
    session.onOutput((chunk) => write(interactive ? chunk.data.toString('utf8') : chunk.data.toString('utf8').replace(/\r?\n/g, '\r\n')));
    session.onEnd((end) => {
      if (held) this.flush(held, session);
      held = undefined;
      this.ended(session, end);
    });
    try {
      await session.start();
    } catch (err) {
      held = undefined;
      if (this.closed) return;
      // Refused by the access rules: final, said once, with who can grant it; no offer to try again.
      const words = err instanceof StreamRefused ? streamRefusalWords(this.options.stream ?? 'shell', err.namespace, err.serverMessage, this.options.user) : err instanceof Error ? err.message : String(err);
      this.writer.fire(`\x1b[31m${words}\x1b[0m\r\n`);
      // Final errors (RBAC; a debug target that moved, a cluster without the feature) are not offered again.
      const final = err instanceof StreamRefused || (err as { final?: unknown } | undefined)?.final === true;
      if (interactive && !final) this.offerNew();
      return;
    }
    if (this.closed) return session.dispose();
    if (held) this.flush(held, session);
    held = undefined;
  }

  private flush(held: string[], session: TerminalSession): void {
    this.writer.fire(sessionHeader(this.target.namespace, this.target.pod, session.container ?? this.target.container, session.command, session.protocol));
    for (const text of held.splice(0)) this.writer.fire(text);
  }

  private ended(session: TerminalSession, end: SessionEnd): void {
    if (this.closed || this.session !== session) return;
    this.session = undefined;
    const interactive = !this.options.command;
    this.writer.fire(sessionEndText(end, this.target.pod, interactive));
    if (end.pod?.kind === 'replaced') this.target = { ...this.target, pod: end.pod.by };
    if (interactive) this.waitingForEnter = true;
  }

  private offerNew(): void {
    this.writer.fire('\x1b[2mPress Enter to try again, or close this terminal.\x1b[0m\r\n');
    this.waitingForEnter = true;
  }
}
