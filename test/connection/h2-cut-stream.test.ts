import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { FakeApiServer } from '../support/apiserver';
import { TcpRelay } from '../support/tcp-relay';
import { until } from '../support/until';

/**
 * Node ends an HTTP/2 stream's readable side ('end') also when its connection closes in the
 * middle of a response (a FIN without END_STREAM), closing the stream with NGHTTP2_CANCEL. Seen
 * on a real kube-apiserver behind a relay that drops the connection (test/real F35): the cut
 * streaming list looked complete and its half line was read as a malformed one.
 */
describe('HTTP/2 streams cut with their connection', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a watch whose connection closes mid-response (FIN, no END_STREAM) fails as a connection reset: not a clean end, no half line', async () => {
    const server = await FakeApiServer.start({ http2: true, version: '1.34' });
    cleanups.push(() => server.close());
    for (let i = 0; i < 3; i++) server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' }, data: { v: 'x'.repeat(3000) } });
    const relay = await TcpRelay.start(Number(new URL(server.url).port));
    cleanups.push(() => relay.close());
    const kc = new KubeConfig();
    kc.loadFromString(relay.rewrite(server.kubeconfig(), server.url));
    const transport = new KubeConfigTransport(kc);
    cleanups.push(() => transport.dispose());

    const lines: unknown[] = [];
    let opened = false;
    const watch = transport.watch(
      '/api/v1/namespaces/default/configmaps',
      { watch: 'true', resourceVersion: server.resourceVersion, allowWatchBookmarks: 'true', timeoutSeconds: '600' },
      new AbortController().signal,
      { onOpen: () => (opened = true), onLine: (parsed) => lines.push(parsed), onData: () => undefined },
    );
    const outcome = watch.then(() => 'ended cleanly', (err: Error) => err);
    await until(() => opened, 'the watch open');
    server.update('configmaps', { metadata: { name: 'cm-0', namespace: 'default' }, data: { v: 'seen' } });
    await until(() => lines.length === 1, 'the first event');
    relay.killAll(); // both sides see a FIN: no RST, no END_STREAM
    const result = await outcome;
    assert.ok(result instanceof Error, `the watch must fail, not end cleanly (${String(result)})`);
    assert.equal(result.name, 'TransportError');
    assert.equal((result as Error & { code?: string }).code, 'ECONNRESET');
    assert.ok(lines.every((l) => l !== undefined), 'no half line delivered');
  });
});
