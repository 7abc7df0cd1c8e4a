import assert from 'node:assert/strict';
import { systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { PortForward } from '../../src/port-forward';
import { get, heldConnection } from '../port-forward/rig';
import { until } from '../support/until';
import { SANDBOX_LINES, SandboxProcess } from './sandbox-process';

/**
 * The sandbox's port-forward and shell faults, typed in its terminal while a forward of the
 * Service shop/web runs through the engine: `pf-kill-pod` replaces the pod a connection is on
 * (the next connections are answered by a web pod that is not the killed one), `pf-drop` cuts
 * the open streams, `exec-drop` with no shell says there is nothing to drop.
 */
describe('sandbox: port-forward and shell faults', function () {
  this.timeout(90_000);
  let sandbox: SandboxProcess | undefined;
  let manager: WatchManager | undefined;
  let forward: PortForward | undefined;

  afterEach(async () => {
    await forward?.stop();
    await manager?.stop();
    forward = manager = undefined;
    if (sandbox?.running) await sandbox.stop('SIGINT', 15_000).catch(() => {});
    sandbox = undefined;
  });

  it('pf-kill-pod replaces the pod a forward is on and the forward moves on; pf-drop cuts its streams; exec-drop with no shell says so', async () => {
    sandbox = SandboxProcess.start(['--no-vscode', '--no-faults', '--no-link']);
    const kubeconfigPath = (await sandbox.waitFor(SANDBOX_LINES.kubeconfig, 60_000))[1];
    manager = new WatchManager({ contexts: [], resources: ['services'], namespaces: [], kubeconfigPath }, { clock: systemClock });
    await manager.start();
    const m = manager;
    await until(() => m.entries().some((e) => e.informer?.state.synced), () => 'the services watch');
    const entry = m.entries()[0];
    const spec = m.contextSpecOf(entry.id)!;
    forward = new PortForward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 }, { transport: m.transportOf(entry.id)!, clock: systemClock, watch: (r) => m.watchAdHoc({ spec, ...r }) });
    await forward.start();
    const f = forward;
    const first = (await get(f.status.localPort)).body.trim();
    assert.match(first, /^web-7d9f8b6c4-\w{5}$/);

    sandbox.type('exec-drop');
    await sandbox.waitFor(/no shell is open, so "exec-drop" would show nothing/, 10_000);

    // A connection held open, so the sandbox sees a forward on a pod.
    const held = await heldConnection(f.status.localPort);
    const mark = sandbox.all.length;
    sandbox.type('pf-kill-pod');
    const killed = (await sandbox.waitFor(/FAULT killed pod shop\/(web-7d9f8b6c4-\w{5}), the one a port-forward is on/, 10_000, mark))[1];
    await held.closed;
    await sandbox.waitFor(/OK pod shop\/web-7d9f8b6c4-\w{5} replaced web-7d9f8b6c4-\w{5} and is ready/, 20_000, mark);
    for (let i = 0; i < 3; i++) assert.notEqual((await get(f.status.localPort)).body.trim(), killed, 'never the killed pod');
    assert.equal(f.status.interrupted, 1, `the connection in flight counted: ${JSON.stringify(f.status)}`);

    const again = await heldConnection(f.status.localPort);
    sandbox.type('pf-drop');
    await sandbox.waitFor(/FAULT dropped 1 port-forward stream\(s\)/, 10_000);
    await again.closed;
    assert.match((await get(f.status.localPort)).body, /^web-7d9f8b6c4-\w{5}\n$/, 'the next connection opens a new stream');
  });
});
