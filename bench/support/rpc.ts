/**
 * Request/response over a forked child's IPC channel. The parent calls methods by name; the
 * child answers each call once, and may send progress notes at any time.
 */
import { fork, type ChildProcess } from 'node:child_process';

interface CallMessage {
  id: number;
  method: string;
  params: unknown;
}

interface ReplyMessage {
  id: number;
  result?: unknown;
  error?: string;
}

interface NoteMessage {
  note: string;
}

export class ChildRpc {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private exited = false;
  onNote: (note: string) => void = () => {};
  readonly exit: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: ReplyMessage | NoteMessage) => {
      if ('note' in m) return this.onNote(m.note);
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
    });
    this.exit = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        this.exited = true;
        for (const p of this.pending.values()) p.reject(new Error(`child exited (${signal ?? code}) before answering`));
        this.pending.clear();
        resolve(code);
      }),
    );
  }

  /** Forks `script` (a bundled .cjs file) with the given V8 flags, without the parent's loaders. */
  static start(script: string, execArgv: string[], env: Record<string, string> = {}): ChildRpc {
    const child = fork(script, [], { execArgv, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new ChildRpc(child);
  }

  call<T>(method: string, params: unknown = {}): Promise<T> {
    if (this.exited) return Promise.reject(new Error('child has exited'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, method, params } satisfies CallMessage);
    });
  }

  /** Ends the child: it exits when its IPC channel closes (so profiles get written), or is killed after 3 s. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await this.exit;
    clearTimeout(timer);
  }
}

/** In a child: answers calls with the given handlers. */
export function serveRpc(handlers: Record<string, (params: never) => unknown>): void {
  process.on('message', (m: CallMessage) => {
    const h = handlers[m.method];
    Promise.resolve()
      .then(() => {
        if (!h) throw new Error(`unknown method ${m.method}`);
        return h(m.params as never);
      })
      .then(
        (result) => process.send?.({ id: m.id, result } satisfies ReplyMessage),
        (err: unknown) => process.send?.({ id: m.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies ReplyMessage),
      );
  });
  process.on('disconnect', () => process.exit(0));
}

/** In a child: a progress note for the parent's status line. */
export function note(text: string): void {
  process.send?.({ note: text } satisfies NoteMessage);
}
