import assert from 'node:assert/strict';
import type { TimedLifecycleEvent } from '../../src/informer';
import { formatLifecycleEvent } from '../../src/ui/log';
import { UiRig, until } from '../ui/lifecycle-rig';

type Reachability = Extract<TimedLifecycleEvent, { type: 'reachability' }>;

/**
 * F50 as the log tells it: a cluster that stops answering is said unreachable (and how it is
 * probed) once per watch, however many probes and retries follow, and reachable again once.
 */
describe('F50 the log of a cluster unreachable for a while', () => {
  let rig: UiRig;
  beforeEach(() => (rig = new UiRig()));
  afterEach(() => rig.close());

  it('F50 every watch of the cluster logs "the cluster is unreachable: probing it …" and "the cluster is reachable again: it answered the probe …" once each', async () => {
    const server = await rig.server({ token: 'token-a' });
    server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
    const m = rig.manager({ resources: ['configmaps', 'pods'], namespaces: [''] });
    const said = new Map<string, Reachability[]>();
    m.onLifecycle((id, e) => e.type === 'reachability' && said.set(id, [...(said.get(id) ?? []), e]));
    const backoffs = new Map<string, number>();
    m.onLifecycle((id, e) => e.type === 'backoff' && backoffs.set(id, (backoffs.get(id) ?? 0) + 1));
    await m.start();
    await until(() => m.entries().length === 2 && m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
    await server.goDown();
    await until(() => m.entries().every((e) => (backoffs.get(e.id) ?? 0) >= 4), () => `several retries each: ${JSON.stringify([...backoffs])}`);
    await server.comeUp();
    await until(() => m.entries().every((e) => e.state.phase === 'watching' && (said.get(e.id) ?? []).some((x) => x.reachable)), () => JSON.stringify([...said]));
    for (const entry of m.entries()) {
      const lines = (said.get(entry.id) ?? []).map((e) => formatLifecycleEvent(entry.label, e).message);
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(lines[0], /the cluster is unreachable: probing it \(a TCP and TLS handshake about every second, no request\)/);
      assert.match(lines[1], /the cluster is reachable again: it answered the probe: 2 waiting watches retry now/);
    }
  });
});
