/**
 * B5: 2,000 events per second into the tree's view model for 30 s. A WatchManager watches Pods
 * in all namespaces on the bench server, the WatchTreeModel (src/ui/tree) sits on it, and every
 * refresh is answered the way VS Code asks (rows of the named nodes and their children). Each
 * event flips a Pod's phase and readiness, so its row changes. Figures from the model's
 * refresh counters: refreshes per second (between the first and the last refresh of the window,
 * so that a window's two ends do not count as an extra refresh), and refreshes of the whole
 * tree (untargeted). Once per initial-list path (on a server with streaming lists).
 */
import type { SyncPath, TreeResult, TreeTask } from '../support/client-main';
import { median, type CaseContext, type CaseResult, type Row, type Verdict } from '../support/harness';
import { podsResource } from '../support/resources';

export async function b5({ h, quick }: CaseContext): Promise<CaseResult> {
  const perSecond = 2000;
  const durationMs = quick ? 5_000 : 30_000;
  const runs = 1;
  const pods = 2000;
  await h.setup({ collections: [{ spec: podsResource.spec, data: { gen: 'pods', count: pods, namespaces: 20 } }], watchMode: { mode: 'churn' }, watchList: true });
  const byPath: Record<SyncPath, TreeResult[]> = { list: [], watchlist: [] };
  for (let r = 0; r < runs; r++) for (const path of ['list', 'watchlist'] as const) {
    const results = byPath[path];
    h.progress.step(`B5 run ${r + 1}/${runs} (${path}): tree over ${pods} Pods, syncing`);
    const c = h.client();
    try {
      await c.call('treeStart', { conn: h.conn(`b5-ours-${path}`), resources: ['pods'], path } satisfies TreeTask);
      h.progress.step(`B5 run ${r + 1}/${runs}: ${perSecond} events/s for ${durationMs / 1000} s`);
      await h.serverCall('churn', { perSecond, durationMs });
      results.push(await c.call<TreeResult>('treeMeasure', { durationMs }));
      await c.call('treeStop');
    } finally {
      await c.stop();
    }
    await h.serverCall('closeWatches');
  }
  h.progress.done();
  const rows: Row[] = [];
  const verdicts: Verdict[] = [];
  const notes: string[] = [];
  for (const path of ['list', 'watchlist'] as const) {
    const results = byPath[path];
    const perSec = median(results.map((x) => x.refreshRate));
    const untargeted = median(results.map((x) => x.untargetedRefreshes));
    const r0 = results[0];
    rows.push(
      { case: 'B5', metric: 'refreshes per second', path, unit: 'refreshes/s', better: 'lower', ours: perSec, reference: null, limit: null, runs },
      { case: 'B5', metric: 'untargeted refreshes', path, unit: 'refreshes', better: 'lower', ours: untargeted, reference: null, limit: null, runs },
    );
    verdicts.push(
      { case: 'B5', metric: 'refreshes per second', path, target: '<= 10 per second', met: perSec <= 10 },
      { case: 'B5', metric: 'untargeted refreshes', path, target: '0 (every refresh targeted)', met: untargeted === 0 },
    );
    notes.push(
      `B5 (${path}): ${Math.round(r0.events / r0.seconds)} events/s reached the handlers over ${r0.seconds.toFixed(1)} s; ${r0.refreshes} refreshes naming ${r0.nodesRefreshed} nodes; answering them took ${r0.renderMsPerSecond.toFixed(1)} ms per second; the status bar drawn with them: ${r0.statusDraws} draws (${(r0.statusDraws / r0.seconds).toFixed(1)} per second), ${r0.statusMsPerSecond.toFixed(1)} ms per second`,
    );
  }
  return { rows, verdicts, notes };
}
