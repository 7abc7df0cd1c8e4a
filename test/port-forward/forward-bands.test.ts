import assert from 'node:assert/strict';
import { HealthRecorder } from '../../src/health';
import { PortForwardSet, withForwardBands } from '../../src/port-forward';
import { StreamsRig, until } from './rig';

/** The Watch Health panel's band per forward: the recorder sees a forward as a watch whose state is its phase. */
describe('port-forward: a band per forward in Watch Health (local API server)', function () {
  this.timeout(60_000);
  let rig: StreamsRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('a forward\'s band is live while it is ready, waits while no pod is running, and stops with it', async () => {
    rig = await StreamsRig.start();
    const r = rig;
    r.pod('web-1', { app: 'web' });
    const set = new PortForwardSet();
    const bands = withForwardBands(r.manager, set);
    const recorder = new HealthRecorder(bands, { clock: r.clock });
    try {
      const entry = await set.start('', 'ctx', r.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 }));
      const id = `port-forward:${entry.id}`;
      const track = () => recorder.tracks().find((t) => t.id === id);
      await until(() => track()?.state === 'watching', () => `the band is live: ${JSON.stringify(track()?.spans)}`);
      assert.ok(bands.entries().some((e) => e.id === id && /^port-forward pod\/web-1 8080 → 127\.0\.0\.1:\d+$/.test(e.label)));
      r.setReady('web-1', false, 'shop', 'Failed');
      await until(() => track()?.state === 'backing-off', () => `the band waits: ${JSON.stringify(track()?.spans)}`);
      assert.match(track()!.spans.at(-1)!.reason ?? '', /no running pod of pod\/web-1 8080/);
      await set.stop(entry.id);
      await until(() => track()?.state === 'stopped', () => `the band stops: ${JSON.stringify(track()?.spans)}`);
    } finally {
      recorder.dispose();
      bands.dispose();
      await set.stopAll();
    }
  });
});
