import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock, type Clock } from '../../src/base';
import type { KubeObject } from '../../src/informer';
import { WatchManager } from '../../src/manager';
import { PortForward, type ForwardSpec, type PortForwardOptions } from '../../src/port-forward';
import { FakeApiServer } from '../support/apiserver';
import { TcpRelay } from '../support/tcp-relay';
import { until } from '../support/until';

/**
 * The streams rig: the local API server (HTTPS; HTTP/2 too under `test:h2`, while the upgrades
 * stay HTTP/1.1), a WatchManager on a real kubeconfig (its ad-hoc watches follow the pods), and
 * forwards on the manager's transport. Pods are created ready, with the ports they declare
 * served by the server's simulated pods (each answers with its name).
 */
export class StreamsRig {
  readonly forwards: PortForward[] = [];
  entryId = '';
  /** The relay in front of the server (a middlebox that can freeze connections), when asked for. */
  relay: TcpRelay | undefined;

  private constructor(
    readonly dir: string,
    readonly server: FakeApiServer,
    readonly manager: WatchManager,
    readonly clock: Clock,
  ) {}

  static async start(
    opts: { token?: string; server?: Parameters<typeof FakeApiServer.start>[0]; clock?: Clock; relay?: boolean; kubeconfig?: (text: string, server: FakeApiServer) => string; manager?: ConstructorParameters<typeof WatchManager>[1] } = {},
  ): Promise<StreamsRig> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-streams-'));
    const token = opts.token ?? 't';
    const server = await FakeApiServer.start({ token, ...opts.server });
    for (const def of [
      { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'] },
      { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] },
      { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'] },
      { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true },
    ]) {
      try {
        server.defineResource(def);
      } catch {
        // defined by default
      }
    }
    const kubeconfig = path.join(dir, 'config');
    let text = server.kubeconfig({ context: 'ctx', token });
    const relay = opts.relay ? await TcpRelay.start(Number(new URL(server.url).port)) : undefined;
    if (relay) text = relay.rewrite(text, server.url);
    fs.writeFileSync(kubeconfig, opts.kubeconfig ? opts.kubeconfig(text, server) : text);
    const clock = opts.clock ?? systemClock;
    const manager = new WatchManager({ contexts: [], resources: ['services'], namespaces: [], kubeconfigPath: kubeconfig }, { clock, ...opts.manager });
    const rig = new StreamsRig(dir, server, manager, clock);
    rig.relay = relay;
    await manager.start();
    await until(() => manager.entries().some((e) => e.informer?.state.synced), () => 'the services watch');
    rig.entryId = manager.entries()[0].id;
    return rig;
  }

  /** A forward on the manager's transport and ad-hoc watches (not started). */
  forward(spec: ForwardSpec, options: Partial<PortForwardOptions> = {}): PortForward {
    const contextSpec = this.manager.contextSpecOf(this.entryId)!;
    const f = new PortForward(spec, {
      transport: this.manager.transportOf(this.entryId)!,
      clock: this.clock,
      watch: (request) => this.manager.watchAdHoc({ spec: contextSpec, ...request }),
      ...options,
    });
    this.forwards.push(f);
    return f;
  }

  /** A ready pod with labels, declaring `ports`. */
  pod(name: string, labels: Record<string, string>, opts: { ports?: Array<{ containerPort: number; name?: string }>; ready?: boolean; phase?: string; owner?: KubeObject; namespace?: string; annotations?: Record<string, string> } = {}): KubeObject {
    const ready = opts.ready ?? true;
    const owner = opts.owner ? [{ apiVersion: 'apps/v1', kind: opts.owner.kind, name: opts.owner.metadata.name, uid: opts.owner.metadata.uid, controller: true }] : undefined;
    return this.server.create('pods', {
      metadata: { namespace: opts.namespace ?? 'shop', name, labels, ...(owner ? { ownerReferences: owner } : {}), ...(opts.annotations ? { annotations: opts.annotations } : {}) },
      spec: { containers: [{ name: 'app', image: 'web:1', ports: opts.ports ?? [{ containerPort: 8080, name: 'http' }] }] },
      status: { phase: opts.phase ?? 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    }) as unknown as KubeObject;
  }

  setReady(name: string, ready: boolean, namespace = 'shop', phase = 'Running'): void {
    const pod = this.server.get('pods', namespace, name)!;
    this.server.update('pods', { ...pod, status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
  }

  service(name: string, selector: Record<string, string> | undefined, ports: Array<{ port: number; targetPort?: number | string; name?: string }>): KubeObject {
    return this.server.create('services', { metadata: { namespace: 'shop', name }, spec: { ...(selector ? { selector } : {}), ports: ports.map((p) => ({ protocol: 'TCP', ...p })), type: 'ClusterIP', clusterIP: '10.96.0.10' } }) as unknown as KubeObject;
  }

  async close(): Promise<void> {
    await Promise.all(this.forwards.splice(0).map((f) => f.stop()));
    await this.manager.stop();
    await this.server.close();
    await this.relay?.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One HTTP GET to the forward's local port, on a connection of its own: the body, or the error. */
export function get(port: number, address = '127.0.0.1'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: address, port, path: '/', agent: false, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timed out')));
  });
}

/** A keep-alive HTTP connection through a forward, held open after its first answer (its stream is open on the server then). */
export async function heldConnection(port: number): Promise<{ socket: net.Socket; closed: Promise<void>; first: string }> {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
  socket.write('GET / HTTP/1.1\r\nHost: pod\r\nConnection: keep-alive\r\n\r\n');
  await until(() => /\r\n\r\n.+\n/s.test(text), () => `the first answer: ${JSON.stringify(text)}`);
  return { socket, closed, first: text.split('\r\n\r\n')[1] };
}

export { until };
