import assert from 'node:assert/strict';
import * as net from 'node:net';
import { PortForwardSet, restoreForwards, restoreMessages } from '../../src/port-forward';
import { StreamsRig, get } from './rig';

/** Forwards restored on the next start: each one said, on its old port when free, and what could not be, why. */
describe('port-forward: restore on the next start (local API server)', function () {
  this.timeout(60_000);
  let rig: StreamsRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('restores what the last window saved, says each one (a taken port moved), and why the others could not be', async () => {
    rig = await StreamsRig.start();
    const r = rig;
    r.pod('web-1', { app: 'web' });
    const set = new PortForwardSet();
    const first = await set.start('', 'ctx', r.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 }));
    const saved = [...set.saved(), { context: 'gone-context', spec: { kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080 } }, { context: '', spec: { kind: 'Pod', namespace: 'shop', name: 'nope', port: 80 } }, { junk: true }];
    const oldPort = first.forward.status.localPort;
    await set.stopAll();
    // Someone else took the old port meanwhile.
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(oldPort, '127.0.0.1', resolve));
    try {
      const contextOfEntry = r.manager.contextSpecOf(r.entryId)!;
      const outcome = await restoreForwards(saved, (context) => (context === contextOfEntry ? r.entryId : undefined), async (_entryId, spec) => (await set.start(contextOfEntry, 'ctx', r.forward(spec))).forward);
      assert.equal(outcome.started.length, 1);
      assert.match(outcome.started[0], new RegExp(`^pod/web-1 8080 → 127\\.0\\.0\\.1:\\d+ \\(port ${oldPort} was taken\\)$`));
      assert.deepEqual(outcome.failed, ['Pod shop/web-1 8080: its context is not watched', 'Pod shop/nope 80: Pod shop/nope not found', 'an entry this version cannot read']);
      const restored = set.list()[0].forward;
      assert.equal((await get(restored.status.localPort)).body, 'web-1\n');
      const messages = restoreMessages(outcome);
      assert.match(messages.info ?? '', /^Restored 1 port-forward \(kubeWatch\.portForward\.restore\): pod\/web-1 8080/);
      assert.match(messages.warning ?? '', /^Could not restore 3 port-forwards: /);
      assert.deepEqual(restoreMessages({ started: [], failed: [] }), {});
    } finally {
      squatter.close();
      await set.stopAll();
    }
  });
});
