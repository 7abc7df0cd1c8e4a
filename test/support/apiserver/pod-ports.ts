/**
 * What a simulated pod listens on: for every port a pod declares (`spec.containers[].ports`), a
 * small HTTP server on loopback that answers every request with the pod's name and a newline,
 * so a test sees which pod answered. Servers start when a port-forward first reaches them and
 * stop when their pod is deleted or replaced (a new uid under the name): connections through
 * them end, as they do when the kubelet kills a pod's containers.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

interface PortServer {
  readonly server: http.Server;
  readonly sockets: Set<Socket>;
  readonly ready: Promise<number>;
}

/** The declared container ports of a pod object (TCP). */
export function declaredPorts(pod: object): number[] {
  const spec = ((pod as { spec?: unknown }).spec ?? {}) as { containers?: Array<{ ports?: Array<{ containerPort?: unknown; protocol?: unknown }> }> };
  const out: number[] = [];
  for (const c of spec.containers ?? []) for (const p of c.ports ?? []) if (typeof p.containerPort === 'number' && (p.protocol ?? 'TCP') === 'TCP') out.push(p.containerPort);
  return out;
}

export class PodPorts {
  /** By pod uid, then port. */
  private readonly servers = new Map<string, Map<number, PortServer>>();
  /** Requests each pod answered (by pod name), for tests. */
  readonly answered = new Map<string, number>();
  /** How long a pod's server keeps an idle keep-alive connection (Node's default 5 s; nginx's is 75 s): for servers started after it is set. */
  keepAliveMs = 5000;

  /** Opens a TCP connection to `port` of the pod `uid` (named `name`); its server starts on first use. */
  async connect(uid: string, name: string, port: number): Promise<Socket> {
    const target = await this.serverFor(uid, name, port).ready;
    return new Promise<Socket>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port: target }, () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  /** Stops the servers of a pod (deleted or replaced) and ends every connection to them. */
  stopPod(uid: string): void {
    const ports = this.servers.get(uid);
    if (!ports) return;
    this.servers.delete(uid);
    for (const s of ports.values()) {
      s.server.close();
      for (const socket of s.sockets) socket.destroy();
    }
  }

  /** Uids of pods with a server running (tests). */
  get runningPods(): string[] {
    return [...this.servers.keys()];
  }

  stopAll(): void {
    for (const uid of [...this.servers.keys()]) this.stopPod(uid);
  }

  private serverFor(uid: string, name: string, port: number): PortServer {
    let ports = this.servers.get(uid);
    if (!ports) this.servers.set(uid, (ports = new Map()));
    const existing = ports.get(port);
    if (existing) return existing;
    const sockets = new Set<Socket>();
    const server = http.createServer((req, res) => {
      this.answered.set(name, (this.answered.get(name) ?? 0) + 1);
      req.resume();
      const body = `${name}\n`;
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
    server.keepAliveTimeout = this.keepAliveMs;
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    });
    const ready = new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
    const entry = { server, sockets, ready };
    ports.set(port, entry);
    return entry;
  }
}
