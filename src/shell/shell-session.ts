import { ApiError, Emitter, type Clock, type Disposable } from '../base';
import type { KubeObject, KubeTransport } from '../informer';
import { ExecStream, type ExecResult } from '../connection/streaming/exec-stream';

/** The shells tried in order, as k9s does: bash where the image has it, else sh. */
export const SHELLS = ['bash', 'sh'] as const;

/** Where a session runs. */
export interface ShellTarget {
  readonly namespace: string;
  readonly pod: string;
  readonly container?: string;
}

/** What became of the pod after a session dropped. */
export type PodFate = { readonly kind: 'exists' } | { readonly kind: 'replaced'; readonly by: string } | { readonly kind: 'gone' } | { readonly kind: 'unknown'; readonly why: string };

/** How a session ended. */
export interface SessionEnd {
  /** The command ended: its exit code (the shell exited), or why it could not run. */
  readonly result?: ExecResult;
  /** The connection dropped before the command ended: why. */
  readonly dropped?: string;
  readonly durationMs: number;
  /** After a drop: whether the pod still exists, or what replaced it. */
  readonly pod?: PodFate;
}

export interface ShellSessionOptions {
  readonly transport: KubeTransport;
  readonly clock: Clock;
  /** The command; default the first of SHELLS the container has. */
  readonly command?: readonly string[];
  /** A terminal (a shell): true; Run Command: false. */
  readonly tty: boolean;
  readonly initialSize?: { columns: number; rows: number };
}

/**
 * The cluster's access rules refused the session (a 403): final, since trying again changes
 * nothing until someone grants it. Carries the server's message, which names the user.
 */
export class StreamRefused extends Error {
  constructor(
    readonly serverMessage: string,
    readonly namespace: string,
  ) {
    super(serverMessage);
    this.name = 'StreamRefused';
  }
}

/**
 * What a terminal drives: a shell over exec (`ShellSession`) or a debug container's attach
 * (src/debug). Output and the end as they come; `start` rejects in words.
 * Invariant: `onEnd` fires once; after it (or `dispose`) no stream of the session is open.
 */
export interface TerminalSession extends Disposable {
  /** What runs (after the bash/sh choice; `attach` for a debug container). */
  readonly command: readonly string[];
  readonly protocol: string | undefined;
  readonly open: boolean;
  /** The container it runs in, when the session chose it (a debug container's generated name). */
  readonly container?: string;
  onOutput(listener: (chunk: { stream: 'stdout' | 'stderr'; data: Buffer }) => void): Disposable;
  onEnd(listener: (end: SessionEnd) => void): Disposable;
  /** Lines about what happens before the stream opens (a container being added and started). */
  onProgress?(listener: (line: string) => void): Disposable;
  start(): Promise<void>;
  writeStdin(data: string | Buffer): void;
  resize(columns: number, rows: number): void;
}

const NOT_FOUND = /executable file not found|no such file or directory|not found/i;

/**
 * One exec in a container: a shell (bash, then sh when the image has no bash) with a TTY, or a
 * command without one. Output is handed on as it arrives; the end says how it ended: the exit
 * code, the reason it could not run, or that the connection dropped, how long the session
 * lasted, and whether the pod still exists or was replaced. A session is never resumed (a
 * shell's state is gone with its connection): a new one is a new `ShellSession`.
 * Invariant: `onEnd` fires once; after it (or `dispose`) no stream of the session is open.
 */
export class ShellSession implements TerminalSession {
  private readonly output = new Emitter<{ stream: 'stdout' | 'stderr'; data: Buffer }>();
  private readonly ends = new Emitter<SessionEnd>();
  private stream: ExecStream | undefined;
  private readonly ctl = new AbortController();
  private startedAt = 0;
  private disposed = false;
  private pendingSize: { columns: number; rows: number } | undefined;
  private negotiated: string | undefined;
  /** The command that runs (after the bash/sh choice). */
  command: readonly string[] = [];
  podUid: string | undefined;

  constructor(
    readonly target: ShellTarget,
    private readonly options: ShellSessionOptions,
  ) {
    this.pendingSize = options.initialSize;
  }

  /** The subprotocol in use, once open. */
  get protocol(): string | undefined {
    return this.negotiated;
  }

  get open(): boolean {
    return this.stream !== undefined;
  }

  onOutput(listener: (chunk: { stream: 'stdout' | 'stderr'; data: Buffer }) => void): Disposable {
    return this.output.on(listener);
  }

  onEnd(listener: (end: SessionEnd) => void): Disposable {
    return this.ends.on(listener);
  }

  /**
   * Opens the session; rejects with a one-line message when the server refuses (RBAC, no such
   * pod or container) or no shell could start.
   */
  async start(): Promise<void> {
    this.podUid = await this.currentPodUid();
    const candidates = this.options.command ? [this.options.command] : SHELLS.map((s) => [s]);
    let lastWhy = '';
    for (const command of candidates) {
      const stream = await this.openStream(command);
      const early = await firstSign(stream, this.options.clock);
      if (early.kind === 'ended' && !this.options.command && early.end.message && NOT_FOUND.test(early.end.message)) {
        lastWhy = early.end.message;
        continue;
      }
      this.command = command;
      this.attach(stream, early);
      return;
    }
    throw new Error(`no shell in ${this.where()}: neither ${SHELLS.join(' nor ')} could start (${lastWhy})`);
  }

  writeStdin(data: string | Buffer): void {
    this.stream?.writeStdin(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  closeStdin(): void {
    this.stream?.closeStdin();
  }

  resize(columns: number, rows: number): void {
    if (this.stream) this.stream.resize(columns, rows);
    else this.pendingSize = { columns, rows };
  }

  dispose(): void {
    this.disposed = true;
    this.ctl.abort(new Error('the terminal closed'));
    this.stream?.dispose();
    this.stream = undefined;
  }

  private where(): string {
    return `pod ${this.target.namespace}/${this.target.pod}${this.target.container ? ` container ${this.target.container}` : ''}`;
  }

  private async openStream(command: readonly string[]): Promise<ExecStream> {
    try {
      return await ExecStream.open(this.options.transport, { ...this.target, command, tty: this.options.tty, stdin: this.options.tty }, this.ctl.signal);
    } catch (err) {
      if (err instanceof ApiError && err.code === 403) throw new StreamRefused(err.message, this.target.namespace);
      if (err instanceof ApiError && err.code === 404) throw new Error(`${this.where()} not found`);
      throw new Error(`cannot run a command in ${this.where()}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private attach(stream: ExecStream, early: Sign): void {
    this.stream = stream;
    this.negotiated = stream.protocol;
    this.startedAt = this.options.clock.now();
    if (this.pendingSize && this.options.tty) stream.resize(this.pendingSize.columns, this.pendingSize.rows);
    const finish = (end: ExecResult & { dropped?: string }) => void this.finish(end);
    if (early.kind === 'running') return early.deliver((chunk) => this.output.fire(chunk), finish);
    for (const chunk of early.output) this.output.fire(chunk);
    finish(early.end);
  }

  private async finish(end: ExecResult & { dropped?: string }): Promise<void> {
    this.stream = undefined;
    const durationMs = this.options.clock.now() - this.startedAt;
    const { dropped, ...result } = end;
    const out: SessionEnd = dropped !== undefined ? { dropped, durationMs, pod: this.disposed ? undefined : await this.fate() } : { result, durationMs };
    this.ends.fire(out);
    this.ends.dispose();
    this.output.dispose();
  }

  private async currentPodUid(): Promise<string | undefined> {
    try {
      const pod = await this.options.transport.getJson<KubeObject>(`/api/v1/namespaces/${encodeURIComponent(this.target.namespace)}/pods/${encodeURIComponent(this.target.pod)}`, {}, this.ctl.signal);
      return pod.metadata.uid;
    } catch {
      return undefined;
    }
  }

  /** After a drop: is the pod still there, or what replaced it. */
  private fate(): Promise<PodFate> {
    return podFate(this.options.transport, this.options.clock, this.target, this.podUid);
  }
}

/** After a drop: is the pod still there, or what replaced it (same name, new uid; or a pod of the same owner). */
export async function podFate(transport: KubeTransport, clock: Clock, target: Pick<ShellTarget, 'namespace' | 'pod'>, podUid: string | undefined): Promise<PodFate> {
  const ctl = new AbortController();
  const timer = clock.setTimer(() => ctl.abort(new Error('no answer within 10 s')), 10_000);
  const { namespace, pod } = target;
  try {
    const now = await transport.getJson<KubeObject>(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}`, {}, ctl.signal).catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    });
    if (now && (!podUid || now.metadata.uid === podUid) && !now.metadata.deletionTimestamp) return { kind: 'exists' };
    if (now && now.metadata.uid !== podUid) return { kind: 'replaced', by: pod };
    const base = pod.replace(/-[a-z0-9]{5}$/, '');
    if (base === pod) return { kind: 'gone' };
    const list = await transport.getJson<{ items?: KubeObject[] }>(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`, {}, ctl.signal);
    const successor = (list.items ?? []).filter((p) => p.metadata.name !== pod && (p.metadata.name ?? '').startsWith(`${base}-`) && !p.metadata.deletionTimestamp).sort((a, b) => String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp)))[0];
    return successor ? { kind: 'replaced', by: successor.metadata.name ?? '' } : { kind: 'gone' };
  } catch (err) {
    return { kind: 'unknown', why: err instanceof Error ? err.message : String(err) };
  } finally {
    timer.cancel();
  }
}

type Chunk = { stream: 'stdout' | 'stderr'; data: Buffer };
type Sign = { kind: 'running'; deliver(onOutput: (c: Chunk) => void, onEnd: (end: ExecResult & { dropped?: string }) => void): void } | { kind: 'ended'; output: Chunk[]; end: ExecResult & { dropped?: string } };

/** How long a shell that printed nothing yet is given to fail (a missing binary fails at once). */
const START_GRACE_MS = 1500;

/**
 * Waits for the first sign of a stream: output (it runs), its end (a shell that is not there
 * ends at once with "executable file not found"), or a short grace with neither (it runs,
 * quietly). Nothing is lost meanwhile: `deliver` hands over what arrived, then what follows.
 */
function firstSign(stream: ExecStream, clock: Clock): Promise<Sign> {
  return new Promise((resolve) => {
    const output: Chunk[] = [];
    let ended: (ExecResult & { dropped?: string }) | undefined;
    let onOutput: ((c: Chunk) => void) | undefined;
    let onEnd: ((end: ExecResult & { dropped?: string }) => void) | undefined;
    let settled = false;
    const running = () => {
      if (settled) return;
      settled = true;
      timer.cancel();
      resolve({
        kind: 'running',
        deliver: (o, e) => {
          for (const c of output.splice(0)) o(c);
          if (ended) return e(ended);
          onOutput = o;
          onEnd = e;
        },
      });
    };
    const timer = clock.setTimer(running, START_GRACE_MS);
    stream.onOutput((chunk) => {
      if (onOutput) return onOutput(chunk);
      output.push(chunk);
      running();
    });
    stream.onEnd((end) => {
      if (onEnd) return onEnd(end);
      ended = end;
      if (settled) return;
      settled = true;
      timer.cancel();
      resolve({ kind: 'ended', output, end });
    });
  });
}
