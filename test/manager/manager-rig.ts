import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom } from '../../src/base';
import { keyOf, type KubeObject, type TimedLifecycleEvent } from '../../src/informer';
import { WatchManager, type WatchConfig, type WatchEntry, type WatchManagerOptions } from '../../src/manager';
import { FakeApiServer, type FakeApiServerOptions } from '../support/apiserver';
import { until } from '../support/until';
import { ManagerView, identityLine } from './manager-view';

/** Timers run this much faster than asked; the server's seconds are scaled alike. */
export const SCALE = 50;

type Stored = { metadata: { name?: string; namespace?: string; uid?: string; resourceVersion?: string } };

/** Sorted identity lines of server objects, to compare with `ManagerView.lines`. */
export function serverLines(objs: Stored[]): string[] {
  return objs.map((o) => identityLine(o as KubeObject)).sort();
}

/**
 * A local API server (real transport, HTTP/1.1 or HTTP/2 as FAKE_APISERVER_HTTP2 says), a
 * kubeconfig for it, and managers on it with a view fed only by their events, every delete and
 * lifecycle event recorded. `close()` stops everything.
 */
export class ManagerRig {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-manager-'));
  readonly kubeconfig = path.join(this.dir, 'config');
  private readonly managers: WatchManager[] = [];

  private constructor(readonly server: FakeApiServer) {
    server.writeKubeconfig(this.kubeconfig, { context: 'ctx-a', token: 'token-a' });
  }

  static async start(options: FakeApiServerOptions = {}): Promise<ManagerRig> {
    return new ManagerRig(await FakeApiServer.start({ timeScale: 1000 / SCALE, token: 'token-a', ...options }));
  }

  manager(config: Partial<WatchConfig>, options: WatchManagerOptions = {}) {
    const m = new WatchManager(
      { contexts: [], resources: [], namespaces: [], kubeconfigPath: this.kubeconfig, ...config },
      { clock: acceleratedClock(SCALE, seededRandom(7)), informerOptions: { requestTimeoutMs: 600_000 }, kubeconfigDebounceMs: 20, ...options },
    );
    this.managers.push(m);
    const view = new ManagerView();
    m.addHandler(view);
    m.onObjectsRemoved((e) => view.removed(e));
    const deletes: string[] = [];
    m.addHandler({ onDelete: (_id, obj) => deletes.push(keyOf(obj)) });
    const lifecycle: { id: string; event: TimedLifecycleEvent }[] = [];
    m.onLifecycle((id, event) => lifecycle.push({ id, event }));
    return { m, view, deletes, lifecycle };
  }

  async close(): Promise<void> {
    for (const m of this.managers.splice(0)) await m.stop();
    await this.server.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export function describeEntries(m: WatchManager): () => string {
  return () => JSON.stringify(m.entries().map((e) => ({ label: e.label, version: e.type?.version, phase: e.state.phase, synced: e.state.synced, error: e.error })));
}

/** Waits until the manager has `count` entries, each with a synced informer that is watching. */
export async function allSynced(m: WatchManager, count: number): Promise<WatchEntry[]> {
  await until(() => {
    const es = m.entries();
    return es.length === count && es.every((e) => e.informer && e.state.phase === 'watching' && e.state.synced);
  }, describeEntries(m));
  return m.entries();
}
