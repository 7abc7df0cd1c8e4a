import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { FakeApiServer } from '../support/apiserver';
import { TcpRelay } from '../support/tcp-relay';
import { until } from '../support/until';

describe('HTTP/2 connection attempts', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a request waiting on a handshake that froze gives up on abort, and takes the attempt down: the next request opens a fresh connection', async () => {
    const server = await FakeApiServer.start({ http2: true });
    cleanups.push(() => server.close());
    server.create('configmaps', { metadata: { name: 'one', namespace: 'default' } });
    const relay = await TcpRelay.start(Number(new URL(server.url).port));
    cleanups.push(() => relay.close());
    const kc = new KubeConfig();
    kc.loadFromString(relay.rewrite(server.kubeconfig(), server.url));
    const transport = new KubeConfigTransport(kc);
    cleanups.push(() => transport.dispose());

    relay.freezeAll(true); // the first connection's handshake never completes
    const ctl = new AbortController();
    const first = transport.list('/api/v1/namespaces/default/configmaps', {}, ctl.signal);
    await until(() => relay.accepted === 1, 'the first connection');
    ctl.abort(new Error('deadline'));
    await assert.rejects(first, { name: 'AbortedError' });

    relay.freezeAll(false); // new connections pass again
    const list = await transport.list('/api/v1/namespaces/default/configmaps', {}, new AbortController().signal);
    assert.deepEqual(
      (list.items ?? []).map((i) => (i as { metadata: { name: string } }).metadata.name),
      ['one'],
    );
    assert.equal(relay.accepted, 2, 'one fresh connection');
    assert.equal(transport.protocol, 'h2');
    assert.equal(server.requests.at(-1)?.protocol, 'h2');
  });
});
