import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { acceleratedClock, seededRandom, type Clock } from '../../src/base';
import { WatchManager, type WatchConfig } from '../../src/manager';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

/**
 * F43 through the manager: while a cluster answers every watch with an error body that never
 * ends, every manager operation (restart, context switch, pause, resume) completes within 1 s of
 * the injected clock, and the operation queue behind them never wedges. The clock runs in real
 * time here, so 1 s is far above what aborting a request takes on a loaded machine.
 */
describe('the watch manager never wedges (F43)', function () {
  this.timeout(60_000);
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** Runs `op` and returns how long it took on `clock`, failing (rather than hanging) after 20 s. */
  async function timed(clock: Clock, what: string, op: () => Promise<unknown>): Promise<number> {
    const started = clock.now();
    let done = false;
    void op().then(() => (done = true));
    await until(() => done, `${what} to complete (the manager's queue is wedged)`);
    return clock.now() - started;
  }

  it('F43 restart, context switch, pause and resume complete within 1 s while every watch of a cluster stalls in an error body that never ends', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-wedge-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const stalled = await FakeApiServer.start({ token: 'token-a' });
    cleanups.push(() => stalled.close());
    const healthy = await FakeApiServer.start({ token: 'token-b' });
    cleanups.push(() => healthy.close());
    for (const s of [stalled, healthy]) s.create('configmaps', { metadata: { name: 'cm-0', namespace: 'default' } });
    const stall = stalled.injectFault({ type: 'stalledBody', code: 500 }, { verb: 'watch', times: Infinity });
    // One kubeconfig with a context on each server.
    const a = new KubeConfig();
    a.loadFromString(stalled.kubeconfig({ context: 'ctx-a', cluster: 'cluster-a', user: 'user-a', token: 'token-a' }));
    const b = new KubeConfig();
    b.loadFromString(healthy.kubeconfig({ context: 'ctx-b', cluster: 'cluster-b', user: 'user-b', token: 'token-b' }));
    const kc = new KubeConfig();
    kc.loadFromOptions({ clusters: [...a.clusters, ...b.clusters], users: [...a.users, ...b.users], contexts: [...a.contexts, ...b.contexts], currentContext: 'ctx-a' });
    const kubeconfigPath = path.join(dir, 'config');
    fs.writeFileSync(kubeconfigPath, kc.exportConfig());

    const clock = acceleratedClock(1, seededRandom(9));
    const registry = new ClusterRegistry(false);
    cleanups.push(() => registry.dispose());
    const config = (context: string): WatchConfig => ({ contexts: [context], resources: ['configmaps'], namespaces: ['default'], kubeconfigPath, streamingList: 'never' });
    // No request deadline to come to the rescue: only the link between a stop and the body read can end it.
    const m = new WatchManager(config('ctx-a'), { clock, clusterRegistry: registry, informerOptions: { requestTimeoutMs: 600_000 } });
    cleanups.push(() => m.stop());
    await m.start();
    await until(() => stall.hits >= 1, 'a watch stalled in its error body');
    await new Promise((r) => setTimeout(r, 50)); // its headers and half its body are read

    const limit = (ms: number, what: string) => assert.ok(ms <= 1000, `${what} took ${ms} ms`);
    limit(await timed(clock, 'restart all', () => m.restartAll('test')), 'restart all');
    await until(() => stall.hits >= 2, 'the restarted watch stalled again');
    limit(await timed(clock, 'the context switch', () => m.update(config('ctx-b'))), 'the context switch');
    await until(() => m.entries().length === 1 && m.entries()[0].context === 'ctx-b' && m.entries()[0].state.phase === 'watching', 'watching on the other context');
    limit(await timed(clock, 'the switch back', () => m.update(config('ctx-a'))), 'the switch back');
    await until(() => stall.hits >= 3, 'the watch stalled again after the switch back');
    limit(await timed(clock, 'pause', () => m.stop()), 'pause');
    assert.equal(m.entries().length, 0, 'nothing left running after the pause');
    limit(await timed(clock, 'resume', () => m.start()), 'resume');
    await until(() => stall.hits >= 4, 'the resumed watch stalled again');
    // The queue goes on: one more operation behind everything above.
    limit(await timed(clock, 'restart all', () => m.restartAll('after')), 'the last restart');
  });
});
