import type { ApiStatus } from '../../base/api-error';
import { Emitter, type Disposable } from '../../base/disposable';
import type { KubeTransport, UpgradedStream } from '../../informer/transport';
import { CLOSE_CHANNEL, decodeFrame, encodeFrame, isBase64Protocol, V4_BASE64, V4_BINARY, V5_BINARY } from './channel-protocol';

/** What to run where, as `kubectl exec` asks for it. */
export interface ExecRequest {
  readonly namespace: string;
  readonly pod: string;
  readonly container?: string;
  readonly command: readonly string[];
  /** A terminal: stdout and stderr arrive together on stdout, resize applies. */
  readonly tty: boolean;
  /** Whether stdin is attached (a shell: yes; Run Command: no). */
  readonly stdin: boolean;
}

/** Which container's process to attach to, as `kubectl attach` asks for it. */
export interface AttachRequest {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly tty: boolean;
  readonly stdin: boolean;
}

/** How a command ended, from the status the server sends on channel 3. */
export interface ExecResult {
  /** The exit code when the command ran (0 on success). */
  readonly exitCode?: number;
  /** Why it did not run or was cut off (the command was not found, the container is gone). */
  readonly message?: string;
}

const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const STATUS = 3;
const RESIZE = 4;

/**
 * One `exec` over the kubelet's remote-command protocol (`remotecommand/websocket.go`): channels
 * 0 stdin, 1 stdout, 2 stderr, 3 the final Status (v4 and v5: a metav1.Status whose
 * `NonZeroExitCode` cause carries the exit code), 4 terminal size as `{"Width":W,"Height":H}`.
 * `v5.channel.k8s.io` is asked for first, for its stdin close signal; `v4` else.
 * Invariant: `onEnd` fires once, with the result when the server sent one, else with the
 * reason the connection ended (a drop says so; it never reads as a clean exit).
 */
export class ExecStream implements Disposable {
  private readonly output = new Emitter<{ stream: 'stdout' | 'stderr'; data: Buffer }>();
  private readonly ends = new Emitter<ExecResult & { dropped?: string }>();
  private statusText = '';
  private ended = false;
  private readonly base64: boolean;

  private constructor(private readonly ws: UpgradedStream) {
    this.base64 = isBase64Protocol(ws.protocol);
    ws.onMessage((m) => this.receive(m));
    ws.onClose((err) => this.finish(err));
  }

  static async open(transport: KubeTransport, request: ExecRequest, signal: AbortSignal): Promise<ExecStream> {
    if (!transport.upgrade) throw new Error('this connection cannot run commands in pods');
    const path = `/api/v1/namespaces/${encodeURIComponent(request.namespace)}/pods/${encodeURIComponent(request.pod)}/exec`;
    const query: Record<string, string | readonly string[]> = {
      command: request.command,
      stdin: String(request.stdin),
      stdout: 'true',
      stderr: String(!request.tty),
      tty: String(request.tty),
    };
    if (request.container) query.container = request.container;
    const ws = await transport.upgrade({ path, query, protocols: [V5_BINARY, V4_BINARY, V4_BASE64] }, signal);
    return new ExecStream(ws);
  }

  /**
   * `attach` to a container's own process (a debug container's shell), as `kubectl attach` asks
   * for it: the same channels as exec, no command; detaching leaves the process running.
   */
  static async attach(transport: KubeTransport, request: AttachRequest, signal: AbortSignal): Promise<ExecStream> {
    if (!transport.upgrade) throw new Error('this connection cannot attach to containers');
    const path = `/api/v1/namespaces/${encodeURIComponent(request.namespace)}/pods/${encodeURIComponent(request.pod)}/attach`;
    const query: Record<string, string> = { container: request.container, stdin: String(request.stdin), stdout: 'true', stderr: String(!request.tty), tty: String(request.tty) };
    const ws = await transport.upgrade({ path, query, protocols: [V5_BINARY, V4_BINARY, V4_BASE64] }, signal);
    return new ExecStream(ws);
  }

  /** The subprotocol in use (`v5.channel.k8s.io` or `v4...`). */
  get protocol(): string {
    return this.ws.protocol;
  }

  onOutput(listener: (chunk: { stream: 'stdout' | 'stderr'; data: Buffer }) => void): Disposable {
    return this.output.on(listener);
  }

  /** The command ended (`exitCode`/`message`) or the connection did (`dropped`: why, no status came). */
  onEnd(listener: (result: ExecResult & { dropped?: string }) => void): Disposable {
    return this.ends.on(listener);
  }

  /** `onWritten` is called once the frame reached the socket (or failed): a sender's back-pressure. */
  writeStdin(data: Buffer, onWritten?: (err?: Error) => void): void {
    if (!this.ended) this.ws.send(encodeFrame(STDIN, data, this.base64), onWritten);
    else onWritten?.(new Error('the command already ended'));
  }

  /** Bytes handed to `writeStdin` and not yet written to the socket. */
  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  /** Stops reading output (the receiver cannot take more) until `resume`: the server then waits. */
  pause(): void {
    if (!this.ended) this.ws.pause();
  }

  resume(): void {
    if (!this.ended) this.ws.resume();
  }

  /** v5: tells the server stdin is done (EOF for the command). On v4 there is no such signal. */
  closeStdin(): void {
    if (!this.ended && this.ws.protocol === V5_BINARY) this.ws.send(Buffer.of(CLOSE_CHANNEL, STDIN));
  }

  resize(columns: number, rows: number): void {
    if (this.ended) return;
    this.ws.send(encodeFrame(RESIZE, Buffer.from(JSON.stringify({ Width: Math.max(1, Math.floor(columns)), Height: Math.max(1, Math.floor(rows)) })), this.base64));
  }

  dispose(): void {
    if (!this.ended) this.ws.destroy();
  }

  private receive(message: Buffer): void {
    const frame = decodeFrame(message, this.base64);
    if (!frame || frame.data.length === 0) return;
    if (frame.channel === STDOUT) this.output.fire({ stream: 'stdout', data: frame.data });
    else if (frame.channel === STDERR) this.output.fire({ stream: 'stderr', data: frame.data });
    else if (frame.channel === STATUS) this.statusText += frame.data.toString('utf8');
  }

  private finish(err: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.output.dispose();
    const result = this.statusText ? resultOfStatus(this.statusText) : { dropped: err?.message ?? 'the connection closed before the command ended' };
    this.ends.fire(result);
    this.ends.dispose();
  }
}

/** The exit code or failure a v4/v5 Status names (client-go `remotecommand` errorDecoderV4). */
export function resultOfStatus(text: string): ExecResult {
  let status: ApiStatus;
  try {
    status = JSON.parse(text) as ApiStatus;
  } catch {
    return { message: text.trim() };
  }
  if (status.status === 'Success') return { exitCode: 0 };
  if (status.reason === 'NonZeroExitCode') {
    const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
    const code = Number(cause?.message);
    if (Number.isInteger(code)) return { exitCode: code };
  }
  return { message: status.message || status.reason || 'the command failed' };
}
