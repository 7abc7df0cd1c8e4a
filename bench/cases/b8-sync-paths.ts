/**
 * B8: initial sync of 100,000 Pods by one streaming list (WatchList) and by paginated LIST,
 * each path and the reference in its own child process. Figures: time to synced, peak RSS, and
 * the heap retained after sync (the peak RSS target is relative to it).
 */
import type { SyncPath, SyncResult, SyncTask } from '../support/client-main';
import { median, type CaseContext, type CaseResult, type Row, type Verdict } from '../support/harness';
import { podsResource } from '../support/resources';

type Runner = 'ours-list' | 'ours-watchlist' | 'reference';

export async function b8({ h, quick }: CaseContext): Promise<CaseResult> {
  const count = quick ? 10_000 : 100_000;
  const namespaces = quick ? 100 : 1000;
  const runs = quick ? 1 : 3;
  h.progress.step(`B8 rendering ${count} Pods`);
  const setup = await h.setup({ collections: [{ spec: podsResource.spec, data: { gen: 'pods', count, namespaces } }], watchMode: { mode: 'hold' }, watchList: true });
  const runners: Runner[] = ['ours-watchlist', 'ours-list', 'reference'];
  const results: Record<Runner, SyncResult[]> = { 'ours-list': [], 'ours-watchlist': [], reference: [] };
  const failures: string[] = [];
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < runners.length; k++) {
      const runner = runners[(k + r) % runners.length];
      h.progress.step(`B8 run ${r + 1}/${runs}: ${runner}`);
      const path: SyncPath = runner === 'ours-watchlist' ? 'watchlist' : 'list';
      const task: SyncTask = { kind: runner === 'reference' ? 'reference' : 'ours', conn: h.conn(`b8-${runner}`), spec: podsResource.spec, expect: count, path };
      try {
        results[runner].push(await h.once<SyncResult>('sync', task));
      } catch (err) {
        failures.push(`B8 ${runner} run ${r + 1} failed: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
        h.progress.log(`  ${failures.at(-1)}`);
      }
    }
  }
  h.progress.done();
  const m = (k: Runner, f: (r: SyncResult) => number) => (results[k].length ? median(results[k].map(f)) : null);
  const ms = (r: SyncResult) => r.ms;
  const rss = (r: SyncResult) => r.maxRss;
  const growth = (r: SyncResult) => r.maxRss - r.rssBefore;
  const heap = (r: SyncResult) => r.retainedBytes;
  const rows: Row[] = [];
  const verdicts: Verdict[] = [];
  const listTime = m('ours-list', ms);
  for (const [path, runner] of [['watchlist', 'ours-watchlist'], ['list', 'ours-list']] as const) {
    const time = m(runner, ms);
    const peak = m(runner, rss);
    const retained = m(runner, heap);
    rows.push(
      { case: 'B8', metric: 'time to synced', path, unit: 'ms', better: 'lower', ours: time, reference: m('reference', ms), limit: null, runs },
      { case: 'B8', metric: 'peak RSS', path, unit: 'bytes', better: 'lower', ours: peak, reference: m('reference', rss), limit: retained, runs },
      // For context: what the sync added to the process's RSS (its code and runtime excluded).
      { case: 'B8', metric: 'peak RSS above start', path, unit: 'bytes', better: 'lower', ours: m(runner, growth), reference: m('reference', growth), limit: retained, runs },
    );
    const ref = m('reference', ms);
    verdicts.push(
      {
        case: 'B8',
        metric: 'time to synced',
        path,
        target: path === 'watchlist' ? '<= list path, < reference' : '< reference',
        met: time !== null && (ref === null || time < ref) && (path === 'list' || listTime === null || time <= listTime),
      },
      { case: 'B8', metric: 'peak RSS', path, target: '<= 1.3x retained heap (limit column)', met: peak !== null && retained !== null && peak <= 1.3 * retained },
    );
  }
  return {
    rows,
    verdicts,
    notes: [
      `B8: ${count} Pods in ${namespaces} namespaces, ${Math.round(setup.itemBytes)} bytes of JSON each; the limit column of the RSS rows is the heap retained after sync`,
      `B8 RSS before the sync (code and runtime loaded): ${(['ours-watchlist', 'ours-list', 'reference'] as const).map((k) => `${k} ${((m(k, (r) => r.rssBefore) ?? 0) / 2 ** 20).toFixed(0)} MiB`).join(', ')}`,
      ...failures,
    ],
  };
}
