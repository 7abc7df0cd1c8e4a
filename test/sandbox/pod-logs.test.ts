import { strict as assert } from 'node:assert';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { systemClock } from '../../src/base';
import { LogFollower, containerRunOf } from '../../src/logs';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { logChoicesOf, previousRunHeading } from '../../src/ui/logs';

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

  it('X10 sandbox: the crash-looping ledger pod offers its previous run first, a log that ends in its panic with exit code 1; each crash of the churn makes a new previous run', async () => {
    const crasher = 'ledger-6d5f7c8b9-z9w4c';
    const podNow = () => cluster.server.get('pods', 'payments', crasher);
    const first = logChoicesOf(podNow())[0];
    assert.equal(first.label, 'main (previous)');
    assert.match(first.description ?? '', /^the last terminated run, before restart 6: Error, exit code 1, finished /);
    assert.match(previousRunHeading(podNow(), 'main'), /^previous run of main \(before restart 6\): Error, exit code 1, finished /);
    const read = async (): Promise<string[]> => {
      const lines: string[] = [];
      const markers: string[] = [];
      await new LogFollower({ namespace: 'payments', pod: crasher, container: 'main', previous: true }, { line: (t) => lines.push(t), marker: (m) => markers.push(m) }, { transport, clock: systemClock }).start();
      assert.deepEqual(markers, []);
      return lines;
    };
    const before = await read();
    assert.match(before[0], /INFO {2}ledger 3\.2\.0 starting/);
    assert.match(before.at(-1) ?? '', /exit status 1$/);
    assert.ok(before.some((l) => /panic: settlement state unavailable/.test(l)));
    for (let i = 0; i < 10; i++) cluster.churn();
    const restarts = (podNow()?.status as { containerStatuses: Array<{ restartCount: number }> }).containerStatuses[0].restartCount;
    assert.equal(restarts, 7, 'the churn restarted it');
    const after = await read();
    assert.match(after.at(-1) ?? '', /exit status 1$/);
    assert.notEqual(after[0], before[0], 'a new run, written at the crash');
  });
});
