/**
 * B1: initial sync of 10,000 ConfigMaps of about 1 KiB each with realistic managedFields.
 * Figures: time until synced, heap retained after sync (after GC), for each of our initial-list
 * paths (paginated LIST, one streaming list) on a server that has both. Each run forks one
 * process per client, in rotating order.
 */
import type { SyncPath, SyncResult, SyncTask, ClientKind } from '../support/client-main';
import { median, type CaseContext, type CaseResult, type Row, type Verdict } from '../support/harness';
import { configmaps } from '../support/resources';

type Runner = ClientKind | 'ours-watchlist';

export async function b1({ h, quick }: CaseContext): Promise<CaseResult> {
  const count = quick ? 5_000 : 10_000;
  const runs = quick ? 3 : 7;
  const namespace = 'shop';
  const setup = await h.setup({ collections: [{ spec: configmaps.spec, data: { gen: 'configmaps', count, namespace } }], watchMode: { mode: 'hold' }, watchList: true });
  const runners: Runner[] = ['ours', 'ours-watchlist', 'reference', 'limit'];
  const results: Record<Runner, SyncResult[]> = { ours: [], 'ours-watchlist': [], reference: [], limit: [] };
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < runners.length; k++) {
      const runner = runners[(k + r) % runners.length];
      h.progress.step(`B1 run ${r + 1}/${runs}: ${runner}`);
      const kind: ClientKind = runner === 'ours-watchlist' ? 'ours' : runner;
      const path: SyncPath = runner === 'ours-watchlist' ? 'watchlist' : 'list';
      const task: SyncTask = { kind, conn: h.conn(`b1-${runner}`), spec: configmaps.spec, namespace, expect: count, path };
      results[runner].push(await h.once<SyncResult>('sync', task));
    }
  }
  h.progress.done();
  const m = (k: Runner, f: (r: SyncResult) => number) => median(results[k].map(f));
  const ms = (r: SyncResult) => r.ms;
  const heap = (r: SyncResult) => r.retainedBytes;
  const rows: Row[] = [];
  const verdicts: Verdict[] = [];
  for (const [path, runner] of [['list', 'ours'], ['watchlist', 'ours-watchlist']] as const) {
    const time = { ours: m(runner, ms), reference: m('reference', ms), limit: m('limit', ms) };
    const retained = { ours: m(runner, heap), reference: m('reference', heap), limit: m('limit', heap) };
    rows.push(
      { case: 'B1', metric: 'time to synced', path, unit: 'ms', better: 'lower', ...time, runs },
      { case: 'B1', metric: 'retained heap', path, unit: 'bytes', better: 'lower', ...retained, runs },
    );
    verdicts.push(
      { case: 'B1', metric: 'time to synced', path, target: '<= 1.0x reference', met: time.ours <= time.reference },
      { case: 'B1', metric: 'retained heap', path, target: '<= 0.6x reference', met: retained.ours <= 0.6 * retained.reference },
    );
  }
  return { rows, verdicts, notes: [`B1: ${count} ConfigMaps, ${Math.round(setup.itemBytes)} bytes of JSON each (with managedFields); a server with both paths`] };
}
