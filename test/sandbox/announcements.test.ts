import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WatchManager } from '../../src/manager';
import { FaultTimeline } from '../../scripts/sandbox/fault-timeline';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import { workspaceResources } from '../../scripts/sandbox/workspace-resources';

async function until(what: string, cond: () => boolean, boundMs = 30_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The sandbox's announcements are true to the screen: they count the watches the status bar
 * counts (one per configured type), never the server's other open watches (here: a second watch
 * of pods, as a log terminal's pod watch or a description's would be).
 */
describe('sandbox: announcements true to the screen', function () {
  this.timeout(90_000);
  let cluster: SimulatedCluster | undefined;
  const managers: WatchManager[] = [];
  let timeline: FaultTimeline | undefined;

  afterEach(async () => {
    await timeline?.stop();
    for (const m of managers.splice(0)) await m.stop();
    await cluster?.stop();
  });

  it('reads the workspace settings (comments allowed) as the configured resources', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-ws-'));
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{\n  // a comment\n  "kubeWatch.resources": ["pods", "events"]\n}\n');
    assert.deepEqual(workspaceResources(file), ['pods', 'events']);
    assert.deepEqual(workspaceResources(path.join(dir, 'missing.json')), []);
    fs.rmSync(dir, { recursive: true, force: true });
    assert.ok(workspaceResources(path.join(__dirname, '../../scripts/sandbox/workspace/.vscode/settings.json')).includes('widgets.example.com'));
  });

  it('a dropped connection is announced with the status bar\'s n/n, an extra watch of the same cluster not counted', async () => {
    cluster = await SimulatedCluster.start({ log: () => undefined });
    const configured = ['pods', 'configmaps', 'services'];
    const lines: string[] = [];
    timeline = new FaultTimeline(cluster, { scheduled: false, watchedResources: configured, announce: (_kind, line) => lines.push(line) });
    const main = new WatchManager({ contexts: [], resources: configured, namespaces: [], kubeconfigPath: cluster.kubeconfigPath });
    const extra = new WatchManager({ contexts: [], resources: ['pods', 'events'], namespaces: ['payments'], kubeconfigPath: cluster.kubeconfigPath });
    managers.push(main, extra);
    await main.start();
    await extra.start();
    await until('every watch open', () => [...main.entries(), ...extra.entries()].every((e) => e.state.phase === 'watching'));
    assert.ok(cluster.server.openWatches() >= 5);
    await timeline.trigger('drop');
    const fault = lines.find((l) => l.startsWith('dropped connection:'))!;
    assert.match(fault, /fewer than 3\/3 live, then the eye and 3\/3/, fault);
    const done = lines.find((l) => l.startsWith('dropped connection over'));
    assert.match(done ?? '', /all 3 watches open again|not every watch is back yet/, lines.join('\n'));
  });
});
