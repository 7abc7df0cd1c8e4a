import { ApiError, Emitter, type Clock, type Disposable } from '../base';
import type { KubeObject, KubeTransport } from '../informer';
import type { ObjectFeed } from '../logs/workload-log-set';
import { ExecStream, type ExecResult } from '../connection/streaming/exec-stream';
import { podFate, StreamRefused, type SessionEnd, type TerminalSession } from '../shell';
import { addEphemeralContainer, DebugTargetMoved, debugContainerName, ephemeralContainerSpec, type DebugRequest } from './ephemeral-container';

/** The watch of the one pod the session asks for, on its context (the manager's `watchAdHoc`). */
export interface DebugFeedRequest {
  readonly type: 'pods';
  readonly namespace: string;
  readonly fieldSelector: string;
  readonly purpose: string;
}

export interface DebugSessionOptions {
  /** Pinned to the pod's origin (OriginTransport): the patch and the attach go to its cluster. */
  readonly transport: KubeTransport;
  readonly clock: Clock;
  readonly watch: (request: DebugFeedRequest) => ObjectFeed;
  /** The pod as the user saw it: its uid is the patch's precondition. */
  readonly pod: KubeObject;
  readonly request: DebugRequest;
  /** Attach again to this debug container (added by an earlier session) instead of adding one. */
  readonly container?: string;
  readonly random?: () => number;
  readonly initialSize?: { columns: number; rows: number };
}

/** The debug container ended: it is never restarted, so attaching again cannot help. */
export class DebugContainerEnded extends Error {
  readonly final = true;
}

type ContainerState = { running?: object; terminated?: { exitCode?: number; reason?: string }; waiting?: { reason?: string; message?: string } };

/** The state the pod's status gives the container, if it lists it. */
export function ephemeralState(pod: KubeObject, container: string): ContainerState | undefined {
  const statuses = ((pod.status ?? {}) as { ephemeralContainerStatuses?: Array<{ name?: string; state?: ContainerState }> }).ephemeralContainerStatuses ?? [];
  return statuses.find((s) => s.name === container)?.state;
}

/**
 * One debug session, as `kubectl debug -it` runs it: add the ephemeral container (unless attaching
 * again to one added before), wait until the watch of the pod shows it running (kubectl's
 * `waitForContainer`: running or terminated; a waiting reason is reported as it changes), then
 * attach to it over the same WebSocket channels as a shell. There is no deadline on the wait (as
 * kubectl has none): an image that cannot be pulled keeps it waiting, with the kubelet's reason
 * shown, until the terminal closes.
 * Invariant: `onEnd` fires once; after it (or `dispose`) no stream or watch of the session is open.
 */
export class DebugSession implements TerminalSession {
  private readonly output = new Emitter<{ stream: 'stdout' | 'stderr'; data: Buffer }>();
  private readonly ends = new Emitter<SessionEnd>();
  private readonly progress = new Emitter<string>();
  private readonly ctl = new AbortController();
  private stream: ExecStream | undefined;
  private feed: ObjectFeed | undefined;
  private startedAt = 0;
  private disposed = false;
  private pendingSize: { columns: number; rows: number } | undefined;
  readonly command: readonly string[] = ['attach'];
  /** The debug container: generated at start, or the one attached to again. */
  container: string | undefined;
  protocol: string | undefined;

  constructor(private readonly options: DebugSessionOptions) {
    this.container = options.container;
    this.pendingSize = options.initialSize;
  }

  get open(): boolean {
    return this.stream !== undefined;
  }

  private get where(): string {
    return `${this.options.pod.metadata.namespace ?? ''}/${this.options.pod.metadata.name ?? ''}`;
  }

  onOutput(listener: (chunk: { stream: 'stdout' | 'stderr'; data: Buffer }) => void): Disposable {
    return this.output.on(listener);
  }

  onEnd(listener: (end: SessionEnd) => void): Disposable {
    return this.ends.on(listener);
  }

  onProgress(listener: (line: string) => void): Disposable {
    return this.progress.on(listener);
  }

  /** Adds (or finds) the container, waits for it to run, attaches; rejects in words. */
  async start(): Promise<void> {
    const { pod, request } = this.options;
    if (!this.container) {
      const name = debugContainerName(pod, this.options.random);
      this.progress.fire(`Adding debug container ${name} (image ${request.image.trim()}${request.target ? `, in the process namespace of container ${request.target}` : ''}) to pod ${this.where}…`);
      await addEphemeralContainer(this.options.transport, pod, ephemeralContainerSpec(name, request), this.ctl.signal);
      this.container = name;
    }
    await this.untilRunning(this.container);
    if (this.disposed) return;
    await this.attach(this.container);
  }

  writeStdin(data: string | Buffer): void {
    this.stream?.writeStdin(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
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
    void this.feed?.dispose();
    this.feed = undefined;
  }

  /** Resolves once the watch shows the container running; rejects when it ended, or the pod went or was replaced. */
  private async untilRunning(container: string): Promise<void> {
    const { pod } = this.options;
    const namespace = pod.metadata.namespace ?? '';
    const feed = this.options.watch({ type: 'pods', namespace, fieldSelector: `metadata.name=${pod.metadata.name ?? ''}`, purpose: `debug ${namespace}/${pod.metadata.name ?? ''}` });
    this.feed = feed;
    let lastWaiting = '';
    let sub: Disposable | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (this.disposed) return resolve();
          if (feed.ended) return reject(new Error(`the watch of pod ${this.where} ended: ${feed.ended}`));
          if (!feed.state.synced) return;
          const now = feed.list().find((p) => p.metadata.name === pod.metadata.name);
          if (!now) return reject(new DebugTargetMoved(`Pod ${this.where} no longer exists.`));
          if (pod.metadata.uid && now.metadata.uid !== pod.metadata.uid) return reject(new DebugTargetMoved(`Pod ${this.where} was deleted and created again under the same name (another uid): its debug container ${container} went with the old pod.`));
          const state = ephemeralState(now, container);
          if (state?.running) return resolve();
          if (state?.terminated) {
            return reject(new DebugContainerEnded(`Debug container ${container} has ended (${state.terminated.reason ?? 'terminated'}, exit code ${state.terminated.exitCode ?? '?'}); an ephemeral container is never restarted: choose Debug Pod… again for a new one.`));
          }
          const waiting = state?.waiting ? `${state.waiting.reason ?? 'Waiting'}${state.waiting.message ? `: ${state.waiting.message}` : ''}` : 'not started by the kubelet yet';
          if (waiting !== lastWaiting) this.progress.fire(`Waiting for debug container ${container} to start (${waiting})…`);
          lastWaiting = waiting;
        };
        sub = feed.onDidChange(check);
        this.ctl.signal.addEventListener('abort', () => resolve(), { once: true });
        check();
      });
    } finally {
      sub?.dispose();
      this.feed = undefined;
      await feed.dispose();
    }
  }

  private async attach(container: string): Promise<void> {
    const namespace = this.options.pod.metadata.namespace ?? '';
    let stream: ExecStream;
    try {
      stream = await ExecStream.attach(this.options.transport, { namespace, pod: this.options.pod.metadata.name ?? '', container, tty: true, stdin: true }, this.ctl.signal);
    } catch (err) {
      if (err instanceof ApiError && err.code === 403) throw new StreamRefused(err.message, namespace);
      throw new Error(`cannot attach to debug container ${container} of pod ${this.where}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (this.disposed) return stream.dispose();
    this.stream = stream;
    this.protocol = stream.protocol;
    this.startedAt = this.options.clock.now();
    if (this.pendingSize) stream.resize(this.pendingSize.columns, this.pendingSize.rows);
    stream.onOutput((chunk) => this.output.fire(chunk));
    stream.onEnd((end) => void this.finish(end));
    this.progress.fire("Attached. If you don't see a command prompt, try pressing enter.");
  }

  private async finish(end: ExecResult & { dropped?: string }): Promise<void> {
    this.stream = undefined;
    const durationMs = this.options.clock.now() - this.startedAt;
    const { dropped, ...result } = end;
    const target = { namespace: this.options.pod.metadata.namespace ?? '', pod: this.options.pod.metadata.name ?? '' };
    const out: SessionEnd = dropped !== undefined ? { dropped, durationMs, pod: this.disposed ? undefined : await podFate(this.options.transport, this.options.clock, target, this.options.pod.metadata.uid) } : { result, durationMs };
    this.ends.fire(out);
    this.ends.dispose();
    this.output.dispose();
    this.progress.dispose();
  }
}
