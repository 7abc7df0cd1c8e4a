import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import type { KubeTransport } from '../../src/informer/transport';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { clusterKeyOf } from '../../src/cluster/context-identity';
import { FakeApiServer } from '../support/apiserver';

describe('contexts on one cluster', () => {
  let server: FakeApiServer | undefined;
  const transports: KubeTransport[] = [];
  afterEach(async () => {
    for (const t of transports.splice(0)) t.dispose();
    await server?.close();
  });

  it('share one HTTP/2 connection, and it closes with the last of them', async () => {
    server = await FakeApiServer.start({ http2: true });
    const registry = new ClusterRegistry(false);
    const factory = kubeConfigTransportFactoryWith(registry);
    for (const name of ['dev', 'ops']) {
      const kc = new KubeConfig();
      kc.loadFromString(server.kubeconfig({ context: name, user: `${name}-user` }));
      transports.push(factory({ contextName: name, clusterKey: clusterKeyOf(kc), kubeConfig: kc }));
    }
    const ctl = new AbortController();
    await Promise.all(transports.flatMap((t) => [t.getJson('/api', {}, ctl.signal), t.list('/api/v1/configmaps', {}, ctl.signal)]));
    assert.equal(server.openSockets(), 1, 'one TCP connection for both contexts');
    assert.equal(server.streamStats.opened, 4);
    transports.shift()!.dispose();
    await transports[0].getJson('/api', {}, ctl.signal);
    assert.equal(server.openSockets(), 1, 'still in use by the other context');
    transports.shift()!.dispose();
    assert.equal(registry.size, 0);
    for (let i = 0; i < 50 && server.openSockets() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.openSockets(), 0, 'the connection closed with the last context');
  });
});
