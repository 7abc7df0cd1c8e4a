import { strict as assert } from 'node:assert';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { systemClock } from '../../src/base';
import { LogFollower, containerRunOf } from '../../src/logs';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';

const POD = 'ledger-6d5f7c8b9-b7n2k';

async function until(what: string, cond: () => boolean, boundMs = 30_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sandbox: pod logs of the simulated cluster', function () {
  this.timeout(60_000);
  let cluster: SimulatedCluster;
  let transport: KubeConfigTransport;

  before(async () => {
    cluster = await SimulatedCluster.start({ podLogEveryMs: 100 });
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    transport = new KubeConfigTransport(kc);
  });

  after(async () => {
    transport?.dispose();
    await cluster?.stop();
  });

  it('a running pod writes lines; a dropped log connection resumes with every line once; a container restart says lines may be lost', async () => {
    const lines: string[] = [];
    const markers: string[] = [];
    const follower = new LogFollower(
      { namespace: 'payments', pod: POD, container: 'main' },
      { line: (text) => lines.push(text), marker: (text) => markers.push(text) },
      { transport, clock: systemClock, currentRun: () => containerRunOf(cluster.server.get('pods', 'payments', POD), 'main') },
    );
    const done = follower.start();
    try {
      await until('three lines', () => lines.length >= 3);
      assert.match(lines[0], /^\d{4}-\d{2}-\d{2}T[\d:.]+Z INFO {2}settlement window=15m batch=\d+ entries=\d+ currency=EUR$/);
      assert.equal(cluster.openLogStreams, 1);

      assert.equal(cluster.dropLogConnections('reset'), 1);
      const seen = lines.length;
      await until('the gap marker and lines after it', () => markers.some((m) => /^reconnected, \d+ s gap$/.test(m)) && lines.length >= seen + 5);
      const batches = lines.map((l) => Number(/batch=(\d+)/.exec(l)?.[1]));
      for (let i = 1; i < batches.length; i++) assert.equal(batches[i], batches[i - 1] + 1, `every line once, in order: ${batches.join(',')}`);

      assert.deepEqual(cluster.restartFollowedContainers(), [`payments/${POD}/main`]);
      await until('the lost-lines marker', () => markers.some((m) => /may have been lost/.test(m)));
      await until('the stream open again', () => cluster.openLogStreams === 1);
    } finally {
      follower.stop();
      await done;
    }
    await until('no log stream on the server', () => cluster.openLogStreams === 0);
  });
});
