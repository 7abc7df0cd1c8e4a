import { Emitter, type Disposable } from '../../base/disposable';
import type { KubeTransport, UpgradedStream } from '../../informer/transport';
import { decodeFrame, encodeFrame, isBase64Protocol, V4_BASE64, V4_BINARY } from './channel-protocol';

/** Where one forwarded stream goes: a port of a pod. */
export interface PortForwardTarget {
  readonly namespace: string;
  readonly pod: string;
  readonly port: number;
}

const DATA = 0;
const ERROR = 1;

/**
 * One TCP stream to a pod's port over the kubelet's port-forward protocol (`v4.channel.k8s.io`,
 * `kubelet/pkg/cri/streaming/portforward/websocket.go`): one port per WebSocket, channel 0 its
 * data both ways, channel 1 the kubelet's error text; each channel starts with the port as two
 * bytes, little endian, which are not part of the data. The stream ends when the pod side closes
 * (the kubelet closes the WebSocket), with the error channel's text when it sent one.
 * Invariant: `onEnd` fires once; after it nothing is delivered and the WebSocket is closed.
 */
export class PortForwardStream implements Disposable {
  private readonly data = new Emitter<Buffer>();
  private readonly ends = new Emitter<string | undefined>();
  private readonly prefixLeft = [2, 2];
  private errorText = '';
  private ended = false;
  private readonly base64: boolean;

  private constructor(
    private readonly ws: UpgradedStream,
    readonly target: PortForwardTarget,
  ) {
    this.base64 = isBase64Protocol(ws.protocol);
    ws.onMessage((m) => this.receive(m));
    ws.onClose((err) => this.end(this.errorText || (err ? err.message : undefined)));
  }

  /** Opens the stream; rejects as the transport's upgrade does (ApiError for a refusal: 403, 404, 400). */
  static async open(transport: KubeTransport, target: PortForwardTarget, signal: AbortSignal): Promise<PortForwardStream> {
    if (!transport.upgrade) throw new Error('this connection cannot forward ports');
    const path = `/api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/portforward`;
    const ws = await transport.upgrade({ path, query: { ports: String(target.port) }, protocols: [V4_BINARY, V4_BASE64] }, signal);
    return new PortForwardStream(ws, target);
  }

  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  /** Bytes from the pod. */
  onData(listener: (chunk: Buffer) => void): Disposable {
    return this.data.on(listener);
  }

  /** The stream ended: undefined when the pod side closed cleanly, else why (the kubelet's error text, a network failure). */
  onEnd(listener: (error: string | undefined) => void): Disposable {
    return this.ends.on(listener);
  }

  write(chunk: Buffer, onWritten?: (err?: Error) => void): void {
    this.ws.send(encodeFrame(DATA, chunk, this.base64), onWritten);
  }

  pause(): void {
    this.ws.pause();
  }

  resume(): void {
    this.ws.resume();
  }

  /** Closes the WebSocket (the pod side sees its connection close). */
  dispose(): void {
    if (this.ended) return;
    this.ws.close();
  }

  /** Ends at once, without the close handshake. */
  destroy(): void {
    this.ws.destroy();
    this.end(undefined);
  }

  private receive(message: Buffer): void {
    const frame = decodeFrame(message, this.base64);
    if (!frame || (frame.channel !== DATA && frame.channel !== ERROR)) return;
    let bytes = frame.data;
    const skip = Math.min(this.prefixLeft[frame.channel], bytes.length);
    if (skip > 0) {
      this.prefixLeft[frame.channel] -= skip;
      bytes = bytes.subarray(skip);
    }
    if (bytes.length === 0) return;
    if (frame.channel === DATA) this.data.fire(bytes);
    else this.errorText += bytes.toString('utf8');
  }

  private end(error: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.data.dispose();
    this.ends.fire(error);
    this.ends.dispose();
  }
}
