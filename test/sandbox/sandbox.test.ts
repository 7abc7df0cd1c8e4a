/**
 * The sandbox without VS Code (`npm start -- --no-vscode`) as a person runs it: a child process
 * that prints its kubeconfig and address, serves the simulated cluster to the real engine (a
 * WatchManager over the kubeconfig it printed), runs a fault typed in its terminal, and on Ctrl-C
 * (SIGINT) stops, exits 0 and leaves nothing behind: no process, no listening port, no folder.
 * The browser side (`npm start` with code-server) is test/e2e/sandbox.e2e.ts.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KubeObject, TimedLifecycleEvent } from '../../src/informer';
import { OriginTransport, WatchManager, type WatchEntry } from '../../src/manager';
import { systemClock } from '../../src/base';
import { DebugSession } from '../../src/debug';
import { SANDBOX_LINES, SandboxProcess, groupLeftAfter, refused } from './sandbox-process';

const RESOURCES = ['pods', 'deployments.apps', 'replicasets.apps', 'configmaps', 'widgets.example.com'];

async function until<T>(what: string, read: () => T, accept: (v: T) => boolean, boundMs = 20_000): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const v = read();
    if (accept(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const keys = (objs: KubeObject[]) => objs.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort();

describe('sandbox: npm start -- --no-vscode', function () {
  this.timeout(90_000);
  let sandbox: SandboxProcess | undefined;
  let manager: WatchManager | undefined;

  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
    // Gracefully, so that even a failed test leaves no folder behind (stop() falls back to SIGKILL).
    if (sandbox?.running) await sandbox.stop('SIGINT', 15_000).catch(() => {});
    sandbox = undefined;
  });

  it('serves the simulated cluster to the engine, runs a typed fault, and stops cleanly on SIGINT', async () => {
    sandbox = SandboxProcess.start(['--no-vscode', '--no-faults', '--no-link']);
    const kubeconfig = (await sandbox.waitFor(SANDBOX_LINES.kubeconfig, 60_000))[1];
    const apiServer = (await sandbox.waitFor(SANDBOX_LINES.apiServer, 5_000))[1];
    assert.ok(fs.existsSync(kubeconfig), `the kubeconfig ${kubeconfig} exists`);
    assert.match(fs.readFileSync(kubeconfig, 'utf8'), new RegExp(`server: "${apiServer.replace(/[.]/g, '\\.')}"`));
    const folder = path.dirname(kubeconfig);

    // The real engine, over the kubeconfig the sandbox printed.
    manager = new WatchManager({ contexts: [], resources: RESOURCES, namespaces: [], kubeconfigPath: kubeconfig });
    const lifecycle: { id: string; event: TimedLifecycleEvent }[] = [];
    manager.onLifecycle((id, event) => lifecycle.push({ id, event }));
    await manager.start();
    const m = manager;
    const describeEntries = () => m.entries().map((e) => `${e.label}: ${e.state.phase}${e.error ? ` (${e.error})` : ''}`);
    await until('every watch to be synced', describeEntries, () => m.entries().length === RESOURCES.length && m.entries().every((e) => e.state.phase === 'watching' && e.state.synced));
    const entry = (resource: string): WatchEntry => m.entries().find((e) => e.resource === resource)!;
    const list = (resource: string) => entry(resource).informer!.list();

    // The simulated resources are there, with the phases and owners the scenario promises.
    const pods = list('pods');
    const podKeys = keys(pods);
    for (const key of ['default/debug', 'payments/postgres-0', 'payments/ledger-6d5f7c8b9-z9w4c', 'shop/web-7d9f8b6c4-2xkqp', 'kube-system/coredns-5d78c9869d-8xk2p', 'batch/nightly-report-29013840-7hxkq']) {
      assert.ok(podKeys.includes(key), `pod ${key} in ${podKeys.join(', ')}`);
    }
    const phases = new Set(pods.map((p) => (p.status as { phase?: string }).phase));
    for (const phase of ['Pending', 'Running', 'Succeeded', 'Failed']) assert.ok(phases.has(phase), `a ${phase} pod (phases: ${[...phases].join(', ')})`);
    const crashing = pods.find((p) => p.metadata.name === 'ledger-6d5f7c8b9-z9w4c')!;
    assert.equal((crashing.status as { containerStatuses: { state: { waiting?: { reason: string } } }[] }).containerStatuses[0].state.waiting?.reason, 'CrashLoopBackOff');
    assert.deepEqual(keys(list('deployments.apps')), ['kube-system/coredns', 'monitoring/grafana', 'monitoring/prometheus', 'payments/ledger', 'shop/api', 'shop/web']);
    const rs = list('replicasets.apps').find((r) => r.metadata.name === 'web-7d9f8b6c4');
    assert.equal((rs?.metadata.ownerReferences as { kind: string; name: string }[] | undefined)?.[0]?.name, 'web', 'the web ReplicaSet is owned by its Deployment');
    assert.deepEqual(keys(list('widgets.example.com')), ['payments/gold-widget', 'shop/blue-widget']);
    assert.equal(entry('widgets.example.com').type?.kind, 'Widget');
    assert.ok(keys(list('configmaps')).includes('shop/web-config'));
    await sandbox.waitFor(SANDBOX_LINES.watching, 10_000); // the sandbox noticed its client

    // X15 in the sandbox: the distroless pod has no shell; Debug Pod adds a container that answers.
    const signer = pods.find((p) => p.metadata.name === 'signer')!;
    assert.ok(signer, 'the distroless pod payments/signer');
    const podsEntry = entry('pods');
    const debug = new DebugSession({
      transport: new OriginTransport(m.originOf(podsEntry.id, signer), (o) => m.resolveOrigin(o), 'payments/signer'),
      clock: systemClock,
      watch: (request) => m.watchAdHoc({ spec: m.contextSpecOf(podsEntry.id)!, ...request }),
      pod: signer,
      request: { image: 'busybox', target: 'main' },
    });
    try {
      let typed = '';
      debug.onOutput((c) => (typed += c.data.toString('utf8')));
      await debug.start();
      debug.writeStdin('echo signer-$((6*7))\n');
      await until('the debug container answers', () => typed, (t) => /signer-42/.test(t));
    } finally {
      debug.dispose();
    }

    // A fault typed in the terminal: announced, then every watch expires and relists.
    const mark = sandbox.mark;
    sandbox.type('expire');
    await sandbox.waitFor(/FAULT expiry: /, 10_000, mark);
    await sandbox.waitFor(/OK expiry over: \d+ relists/, 30_000, mark);
    await until(
      'an expiry and a relist for every watch',
      () => m.entries().map((e) => ({ resource: e.resource, expired: lifecycle.some((l) => l.id === e.id && l.event.type === 'expired'), relists: e.stats.relists })),
      (rows) => rows.every((r) => r.expired && r.relists >= 1),
    );
    await until('every watch to be back', describeEntries, () => m.entries().every((e) => e.state.phase === 'watching'));
    await manager.stop();
    manager = undefined;

    // Ctrl-C: exit 0, and nothing left behind.
    const exit = await sandbox.stop('SIGINT', 20_000);
    assert.deepEqual(exit, { code: 0, signal: null }, sandbox.all);
    assert.match(sandbox.all, SANDBOX_LINES.stopped);
    // (tsx's esbuild service, a child of the sandbox, ends a moment after it.)
    assert.deepEqual(await groupLeftAfter(sandbox.pid, 3000), [], 'no process of the sandbox is left');
    assert.equal(await refused(apiServer), true, `${apiServer} no longer accepts connections`);
    assert.equal(fs.existsSync(folder), false, `${folder} was removed`);
  });

  it('refuses an unknown argument with exit code 2 and the usage', async () => {
    sandbox = SandboxProcess.start(['--no-such-flag']);
    const exit = await sandbox.exited;
    assert.equal(exit.code, 2);
    assert.match(sandbox.all, /unknown argument "--no-such-flag"/);
    assert.match(sandbox.all, /--no-vscode/);
  });
});
