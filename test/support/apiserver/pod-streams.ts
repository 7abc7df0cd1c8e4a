/**
 * Port-forward, exec and attach as kube-apiserver 1.34 serves them over WebSocket (the kubelet's
 * streaming server behind it): `GET .../pods/NAME/portforward?ports=N` and
 * `GET .../pods/NAME/exec?command=…&stdin=…&stdout=…&stderr=…&tty=…[&container=…]` with an
 * `Upgrade: websocket`. Subprotocols as the kubelet offers them: port-forward `v4.channel.k8s.io`
 * and `v4.base64.channel.k8s.io` (each channel starts with the port, two bytes little endian;
 * channel 1 carries the error text), exec `v5.channel.k8s.io` (unless `offerV5` is off, as on
 * servers before 1.30), `v4.channel.k8s.io`, `v4.base64.channel.k8s.io` (channel 3 the final
 * Status, 4 resize, v5's channel 255 closes stdin).
 *
 * `GET .../pods/NAME/attach?container=…&stdin=…&stdout=…&stderr=…&tty=…` joins the container's
 * own running process (an ephemeral container the simulated kubelet started: `startContainer`),
 * on the same channels as exec; a container the pod does not have is a 400 before the upgrade,
 * one that is not running ends the stream with a Failure status; detaching leaves it running.
 *
 * Authorization runs first, as the API server's does: no token 403, a wrong one 401, RBAC's 403
 * where the server's access policy refuses `get` on the subresource (as 1.34.9 authorizes the upgrade) (`server.access`), or
 * where `forbid('portforward')` says so. A pod that does not exist is a
 * 404 before the upgrade. Faults: `drop(kind)` cuts every open stream of that kind (an RST);
 * deleting a pod ends its streams and stops its port servers. Everything stops when the server
 * closes.
 */
import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { baseHeaders } from './responses';
import { failure, unauthorized, type StatusJson } from './status';
import { declaredPorts, PodPorts } from './pod-ports';
import { PodScratch, refusal, startProcess, type PodProcess } from './pod-exec';
import type { KubeObjectJson, RequestRecord } from './types';
import type { HistoryEvent } from './store';
import type { AccessAttributes } from './access-policy';

type StreamKind = 'portforward' | 'exec' | 'attach';

/** A container's own process (an ephemeral container the kubelet started): attach connects to it. */
interface ContainerProcess {
  readonly proc: PodProcess;
  readonly podUid: string;
  /** The attached streams' output handlers. */
  readonly attached: Set<(data: Buffer) => void>;
  /** The attached streams' ends (the process exited: its status). */
  readonly ends: Set<(code: number) => void>;
}

/** What the streams need of the API server. */
export interface PodStreamsHost {
  pod(namespace: string, name: string): KubeObjectJson | undefined;
  token(): string;
  record(record: RequestRecord): void;
  onChange(listener: (change: HistoryEvent) => void): () => void;
  /** The server's RBAC-like policy (access-policy.ts): the 403 for `get` on `pods/portforward` or `pods/exec`, or undefined when allowed. */
  refusal?(attributes: AccessAttributes): StatusJson | undefined;
}

interface OpenStream {
  readonly kind: StreamKind;
  readonly podUid: string;
  readonly pod: { namespace: string; name: string };
  readonly ws: WebSocket;
  readonly socket: Duplex;
  readonly cleanup: () => void;
}

const PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(portforward|exec|attach)$/;

export class PodStreams {
  readonly ports = new PodPorts();
  private readonly scratch = new PodScratch();
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: (offered) => this.choose(offered) });
  private readonly open = new Set<OpenStream>();
  private readonly forbidden = new Set<StreamKind>();
  private offering: StreamKind = 'exec';
  /** Offer `v5.channel.k8s.io` for exec (1.30+). */
  offerV5 = true;
  /** Every resize an exec stream received, in order. */
  readonly resizes: Array<{ pod: string; width: number; height: number }> = [];
  /** Streams opened so far, by kind. */
  readonly opened = { portforward: 0, exec: 0, attach: 0 };
  /** The containers' own processes (ephemeral containers), by `podUid/container`. */
  private readonly containers = new Map<string, ContainerProcess>();

  constructor(
    server: http.Server | import('node:http2').Http2SecureServer,
    private readonly host: PodStreamsHost,
  ) {
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
    server.on('close', () => this.closeAll());
    host.onChange((c) => {
      if (c.resource !== 'pods') return;
      if (c.type === 'DELETED' || (c.prev && c.prev.metadata.uid !== c.object.metadata.uid)) this.endPod(String((c.prev ?? c.object).metadata.uid));
    });
  }

  /** Refuse a subresource with RBAC's 403 (`pods/portforward`, `pods/exec`), or allow it again. */
  forbid(kind: StreamKind, forbidden = true): void {
    if (forbidden) this.forbidden.add(kind);
    else this.forbidden.delete(kind);
  }

  /** Streams open now, of one kind or all. */
  openStreams(kind?: StreamKind): number {
    return [...this.open].filter((s) => !kind || s.kind === kind).length;
  }

  /** The pods with a stream of `kind` open now (`namespace/name`, each once). */
  podsWithStreams(kind: StreamKind): Array<{ namespace: string; name: string }> {
    const seen = new Map<string, { namespace: string; name: string }>();
    for (const s of this.open) if (s.kind === kind) seen.set(`${s.pod.namespace}/${s.pod.name}`, s.pod);
    return [...seen.values()];
  }

  /** Cuts every open stream of `kind` (a dropped connection: no close frame). Returns how many. */
  drop(kind: StreamKind): number {
    const victims = [...this.open].filter((s) => s.kind === kind);
    for (const s of victims) {
      s.socket.destroy();
      s.cleanup();
    }
    return victims.length;
  }

  /**
   * Ends every stream, pod port server and scratch directory (the server closed). The routes stay
   * usable: a server that listens again (an outage ends) serves streams again.
   */
  closeAll(): void {
    for (const s of [...this.open]) {
      s.socket.destroy();
      s.cleanup();
    }
    for (const c of [...this.containers.values()]) c.proc.kill();
    this.containers.clear();
    this.ports.stopAll();
    this.scratch.removeAll();
  }

  private endPod(uid: string): void {
    for (const s of [...this.open]) if (s.podUid === uid) {
      s.ws.terminate();
      s.cleanup();
    }
    for (const [key, c] of [...this.containers]) if (c.podUid === uid) {
      this.containers.delete(key);
      c.proc.kill();
    }
    this.ports.stopPod(uid);
    this.scratch.remove(uid);
  }

  private choose(offered: Set<string>): string | false {
    const supported = this.offering !== 'portforward' ? [...(this.offerV5 ? ['v5.channel.k8s.io'] : []), 'v4.channel.k8s.io', 'v4.base64.channel.k8s.io', 'channel.k8s.io', 'base64.channel.k8s.io'] : ['v4.channel.k8s.io', 'v4.base64.channel.k8s.io'];
    for (const p of offered) if (supported.includes(p)) return p;
    return false;
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://fake');
    const m = PATH.exec(url.pathname);
    const record: RequestRecord = { verb: 'other', method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), status: 0, at: Date.now(), resource: 'pods', protocol: 'http/1.1' };
    this.host.record(record);
    const refuse = (s: StatusJson) => {
      record.status = s.code;
      const body = JSON.stringify(s);
      socket.end(`HTTP/1.1 ${s.code} ${s.reason}\r\n${Object.entries({ ...baseHeaders('application/json'), 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
    };
    if (!m) return refuse(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
    const [, namespace, name, kind] = m as unknown as [string, string, string, StreamKind];
    record.namespace = namespace;
    record.name = name;
    const auth = req.headers.authorization;
    if (auth === undefined) return refuse(failure(403, 'Forbidden', `pods "${name}" is forbidden: User "system:anonymous" cannot get resource "pods/${kind}" in API group "" in the namespace "${namespace}"`, { name, kind: 'pods' }));
    if (auth !== `Bearer ${this.host.token()}`) return refuse(unauthorized());
    // kube-apiserver 1.34.9 authorizes the WebSocket upgrade (a GET) as `get` on the subresource (test/real/streams.real.ts).
    const denied = this.host.refusal?.({ verb: 'get', group: '', resource: 'pods', subresource: kind, namespace, name });
    if (denied) return refuse(denied);
    if (this.forbidden.has(kind)) return refuse(failure(403, 'Forbidden', `pods "${name}" is forbidden: User "kube-watch-test" cannot get resource "pods/${kind}" in API group "" in the namespace "${namespace}"`, { name, kind: 'pods' }));
    const pod = this.host.pod(namespace, name);
    if (!pod) return refuse(failure(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' }));
    if (kind === 'portforward' && !url.searchParams.get('ports')) return refuse(failure(400, 'BadRequest', 'query parameter "port" is required', {}));
    if (kind === 'exec' && url.searchParams.getAll('command').length === 0) return refuse(failure(400, 'BadRequest', 'you must specify at least one command for the container', {}));
    const container = url.searchParams.get('container') ?? '';
    if (kind === 'attach' && !containerNames(pod).includes(container)) return refuse(failure(400, 'BadRequest', `container ${container} is not valid for pod ${name}`, {}));
    this.offering = kind;
    record.status = 101;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.opened[kind]++;
      if (kind === 'portforward') this.portForward(ws, socket, pod, Number(url.searchParams.get('ports')));
      else if (kind === 'attach') this.attach(ws, socket, pod, container);
      else this.exec(ws, socket, pod, url.searchParams);
    });
  }

  private track(kind: StreamKind, ws: WebSocket, socket: Duplex, pod: KubeObjectJson, stop: () => void): OpenStream {
    let done = false;
    const entry: OpenStream = {
      kind,
      podUid: String(pod.metadata.uid),
      pod: { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name },
      ws,
      socket,
      cleanup: () => {
        if (done) return;
        done = true;
        this.open.delete(entry);
        stop();
      },
    };
    this.open.add(entry);
    ws.on('close', () => entry.cleanup());
    ws.on('error', () => entry.cleanup());
    return entry;
  }

  private portForward(ws: WebSocket, socket: Duplex, pod: KubeObjectJson, port: number): void {
    const uid = String(pod.metadata.uid);
    const name = String(pod.metadata.name);
    const base64 = ws.protocol === 'v4.base64.channel.k8s.io';
    const frame = (ch: number, data: Buffer) => (base64 ? `${ch}${data.toString('base64')}` : Buffer.concat([Buffer.of(ch), data]));
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16LE(port);
    ws.send(frame(0, prefix));
    ws.send(frame(1, prefix));
    let target: import('node:net').Socket | undefined;
    const entry = this.track('portforward', ws, socket, pod, () => target?.destroy());
    const failWith = (text: string) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(frame(1, Buffer.from(text)));
      ws.close(1000);
    };
    const pending: Buffer[] = [];
    ws.on('message', (m: Buffer, isBinary: boolean) => {
      const data = isBinary ? m : Buffer.from(m.toString('latin1').slice(1), 'base64');
      const payload = isBinary ? data.subarray(1) : data;
      if ((isBinary ? m[0] : m[0] - 48) !== 0 || payload.length === 0) return;
      if (target) target.write(payload);
      else pending.push(payload);
    });
    if (!declaredPorts(pod).includes(port)) {
      return failWith(`error forwarding port ${port} to pod ${uid}, uid : failed to connect to localhost:${port} inside namespace "${uid}", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused `);
    }
    this.ports.connect(uid, name, port).then(
      (s) => {
        if (!this.open.has(entry)) return s.destroy();
        target = s;
        for (const p of pending.splice(0)) s.write(p);
        s.on('data', (chunk: Buffer) => {
          if (ws.readyState === ws.OPEN) ws.send(frame(0, chunk));
        });
        s.on('error', () => undefined);
        s.on('close', () => {
          if (ws.readyState === ws.OPEN) ws.close(1000);
        });
      },
      (err: Error) => failWith(`error forwarding port ${port} to pod ${uid}: ${err.message}`),
    );
  }

  private exec(ws: WebSocket, socket: Duplex, pod: KubeObjectJson, params: URLSearchParams): void {
    const uid = String(pod.metadata.uid);
    const base64 = ws.protocol.includes('base64');
    const frame = (ch: number, data: Buffer) => (base64 ? `${ch}${data.toString('base64')}` : Buffer.concat([Buffer.of(ch), data]));
    const v4 = ws.protocol.startsWith('v4.') || ws.protocol.startsWith('v5.');
    const command = params.getAll('command');
    const tty = params.get('tty') === 'true';
    const annotations = (pod.metadata.annotations ?? {}) as Record<string, string>;
    const status = (s: object) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(frame(3, Buffer.from(JSON.stringify(v4 ? s : { message: (s as { message?: string }).message ?? '' }))));
      ws.close(1000);
    };
    const name = String(pod.metadata.name);
    const path = this.scratch.pathOf(uid, name, annotations);
    const refused = refusal(command, annotations['kube-watch.test/bash'] === 'true', annotations['kube-watch.test/distroless'] === 'true', path);
    if (refused) {
      this.track('exec', ws, socket, pod, () => undefined);
      return status({ metadata: {}, status: 'Failure', message: refused, reason: 'InternalError', details: { causes: [{ message: refused }] }, code: 500 });
    }
    const proc = startProcess({ command, tty, stdin: params.get('stdin') === 'true' }, this.scratch.dirOf(uid, name, annotations), path);
    this.track('exec', ws, socket, pod, () => proc.kill());
    ws.send(frame(1, Buffer.alloc(0)));
    proc.child.stdout?.on('data', (d: Buffer) => ws.readyState === ws.OPEN && ws.send(frame(1, d)));
    proc.child.stderr?.on('data', (d: Buffer) => ws.readyState === ws.OPEN && ws.send(frame(tty ? 1 : 2, d)));
    proc.child.on('error', (err) => status({ metadata: {}, status: 'Failure', message: err.message, reason: 'InternalError', code: 500 }));
    proc.child.on('close', (code, signal) => {
      const exit = code ?? (signal ? 137 : 1);
      if (exit === 0) status({ metadata: {}, status: 'Success' });
      else status({ metadata: {}, status: 'Failure', message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exit}`, reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: String(exit) }] } });
    });
    ws.on('message', (m: Buffer, isBinary: boolean) => {
      const ch = isBinary ? m[0] : m[0] - 48;
      const data = isBinary ? m.subarray(1) : Buffer.from(m.toString('latin1').slice(1), 'base64');
      if (ch === 0) proc.write(data);
      else if (ch === 255 && data[0] === 0) proc.closeStdin();
      else if (ch === 4) {
        try {
          const size = JSON.parse(data.toString('utf8')) as { Width: number; Height: number };
          this.resizes.push({ pod: String(pod.metadata.name), width: size.Width, height: size.Height });
          proc.resize(size.Width, size.Height);
        } catch {
          // a malformed resize is ignored, as the kubelet does
        }
      }
    });
  }

  /**
   * Starts a container's own process, as the kubelet starts an ephemeral container: a shell (its
   * image's; `sh` here) with the container's TTY and stdin, in the pod's scratch directory.
   * `onExit` runs with the exit code when it ends (not when the pod is deleted or the server closes).
   */
  startContainer(pod: KubeObjectJson, container: { name?: string; tty?: unknown; stdin?: unknown; command?: unknown }, onExit: (code: number) => void): void {
    const uid = String(pod.metadata.uid);
    const key = `${uid}/${String(container.name)}`;
    if (this.containers.has(key)) return;
    const command = Array.isArray(container.command) && container.command.length > 0 ? container.command.map(String) : ['sh'];
    const proc = startProcess({ command, tty: container.tty === true, stdin: container.stdin === true }, this.scratch.dirOf(uid, String(pod.metadata.name)));
    const entry: ContainerProcess = { proc, podUid: uid, attached: new Set(), ends: new Set() };
    this.containers.set(key, entry);
    const deliver = (d: Buffer) => {
      for (const a of entry.attached) a(d);
    };
    proc.child.stdout?.on('data', deliver);
    proc.child.stderr?.on('data', deliver);
    proc.child.on('close', (code, signal) => {
      const exit = code ?? (signal ? 137 : 1);
      const own = this.containers.get(key) === entry;
      this.containers.delete(key);
      for (const end of [...entry.ends]) end(exit);
      if (own) onExit(exit);
    });
  }

  /** Containers whose own process runs now (`podUid/name`). */
  runningContainers(): string[] {
    return [...this.containers.keys()];
  }

  /** `attach`: the stream joins the container's running process (its output, its stdin, its terminal size). */
  private attach(ws: WebSocket, socket: Duplex, pod: KubeObjectJson, container: string): void {
    const base64 = ws.protocol.includes('base64');
    const frame = (ch: number, data: Buffer) => (base64 ? `${ch}${data.toString('base64')}` : Buffer.concat([Buffer.of(ch), data]));
    const status = (s: object) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(frame(3, Buffer.from(JSON.stringify(s))));
      ws.close(1000);
    };
    const target = this.containers.get(`${String(pod.metadata.uid)}/${container}`);
    if (!target) {
      this.track('attach', ws, socket, pod, () => undefined);
      return status({ metadata: {}, status: 'Failure', message: `container ${container} not found in pod ${String(pod.metadata.name)} (it is not running)`, reason: 'InternalError', code: 500 });
    }
    const out = (d: Buffer) => ws.readyState === ws.OPEN && ws.send(frame(1, d));
    const end = (exit: number) =>
      status(exit === 0 ? { metadata: {}, status: 'Success' } : { metadata: {}, status: 'Failure', message: `command terminated with non-zero exit code: exit code ${exit}`, reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: String(exit) }] } });
    target.attached.add(out);
    target.ends.add(end);
    // Detaching leaves the container running, as on a real kubelet.
    this.track('attach', ws, socket, pod, () => {
      target.attached.delete(out);
      target.ends.delete(end);
    });
    ws.send(frame(1, Buffer.alloc(0)));
    ws.on('message', (m: Buffer, isBinary: boolean) => {
      const ch = isBinary ? m[0] : m[0] - 48;
      const data = isBinary ? m.subarray(1) : Buffer.from(m.toString('latin1').slice(1), 'base64');
      if (ch === 0) target.proc.write(data);
      else if (ch === 4) {
        try {
          const size = JSON.parse(data.toString('utf8')) as { Width: number; Height: number };
          this.resizes.push({ pod: String(pod.metadata.name), width: size.Width, height: size.Height });
          target.proc.resize(size.Width, size.Height);
        } catch {
          // a malformed resize is ignored, as the kubelet does
        }
      }
    });
  }
}

/** Every container name of a pod: regular, init and ephemeral. */
function containerNames(pod: KubeObjectJson): string[] {
  const spec = (pod.spec ?? {}) as Record<string, Array<{ name?: string }> | undefined>;
  return [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => String(c.name));
}
