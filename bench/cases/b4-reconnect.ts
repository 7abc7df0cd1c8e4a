/**
 * B4: the server drops every open watch of 50 informers at once (their connections are
 * destroyed). Figures, from the server's own clock: time from the drop until all 50 watch
 * again, and the most re-watches that arrive in any 100 ms window.
 * The reference restarts 5 s after an 'error' event, as its informer example does (without that
 * it would never come back). Ours runs on both initial-list paths (on a server with streaming lists).
 */

type Runner = 'ours' | 'ours-watchlist' | 'reference';
import type { ManyTask, SyncPath } from '../support/client-main';
import type { RequestRecord } from '../support/bench-server';
import { median, type CaseContext, type CaseResult, type Row, type Verdict } from '../support/harness';
import { configmaps } from '../support/resources';

const INFORMERS = 50;

export function mostInWindow(times: number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let most = 0;
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    while (t[i] - t[j] >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

export async function b4({ h, quick }: CaseContext): Promise<CaseResult> {
  const runs = quick ? 1 : 5;
  const namespaces = Array.from({ length: INFORMERS }, (_, i) => `tenant-${String(i).padStart(2, '0')}`);
  await h.setup({ collections: [{ spec: configmaps.spec, data: { gen: 'small', count: 5, namespaces } }], watchMode: { mode: 'hold' }, watchList: true });
  const watches = namespaces.map((namespace) => ({ spec: configmaps.spec, namespace }));
  const out: Record<Runner, { allBack: number; most: number }[]> = { ours: [], 'ours-watchlist': [], reference: [] };
  const notes: string[] = [];
  for (let r = 0; r < runs; r++) {
    for (const runner of ['ours', 'ours-watchlist', 'reference'] as const) {
      const kind = runner === 'reference' ? 'reference' : 'ours';
      const path: SyncPath | undefined = runner === 'reference' ? undefined : runner === 'ours' ? 'list' : 'watchlist';
      h.progress.step(`B4 run ${r + 1}/${runs}: ${runner}, 50 informers starting`);
      const conn = h.conn(`b4-${runner}`);
      const c = h.client();
      try {
        await c.call('startMany', { kind, conn, watches, restartOnErrorMs: 5000, path } satisfies ManyTask);
        const open = await h.until(async () => (await h.serverCall<number>('openWatches', { label: conn.label })) >= INFORMERS, 60_000, 50);
        if (!open) throw new Error(`${runner}: the ${INFORMERS} watches did not all open`);
        await new Promise((res) => setTimeout(res, 300));
        h.progress.step(`B4 run ${r + 1}/${runs}: ${kind}, all watches dropped`);
        const drop = await h.serverCall<{ at: number; count: number }>('drop');
        let firsts = new Map<string, number>();
        const back = await h.until(
          async () => {
            const recs = await h.requests(conn.label, drop.at);
            firsts = firstWatchPerPath(recs);
            h.progress.note(`${firsts.size}/${INFORMERS} watching again`);
            return firsts.size >= INFORMERS;
          },
          60_000,
          100,
        );
        const times = [...firsts.values()].map((t) => t - drop.at);
        if (!back) notes.push(`B4 ${runner} run ${r + 1}: only ${firsts.size} of ${INFORMERS} watched again within 60 s`);
        out[runner].push({ allBack: back ? Math.max(...times) : Number.POSITIVE_INFINITY, most: mostInWindow(times, 100) });
        await c.call('stopMany');
        await h.serverCall('closeWatches');
      } finally {
        await c.stop();
      }
    }
  }
  h.progress.done();
  const m = (k: Runner, f: (x: { allBack: number; most: number }) => number) => median(out[k].map(f));
  const rows: Row[] = [];
  const verdicts: Verdict[] = [];
  for (const [path, runner] of [['list', 'ours'], ['watchlist', 'ours-watchlist']] as const) {
    const allBack = { ours: m(runner, (x) => x.allBack), reference: m('reference', (x) => x.allBack) };
    const most = { ours: m(runner, (x) => x.most), reference: m('reference', (x) => x.most) };
    const worst = Math.max(...out[runner].map((x) => x.most));
    rows.push(
      { case: 'B4', metric: 'time until all watch again', path, unit: 'ms', better: 'lower', ...allBack, limit: null, runs },
      { case: 'B4', metric: 'most reconnects in 100 ms', path, unit: 'reconnects', better: 'lower', ...most, limit: null, runs },
    );
    verdicts.push(
      { case: 'B4', metric: 'time until all watch again', path, target: '<= 3000 ms (median)', met: allBack.ours <= 3000 },
      { case: 'B4', metric: 'most reconnects in 100 ms', path, target: '<= 10', met: most.ours <= 10, note: `worst run ${worst}` },
    );
  }
  const perRun = (k: Runner) => out[k].map((x) => `${Math.round(x.allBack)}/${x.most}`).join(', ');
  return {
    rows,
    verdicts,
    notes: [`B4: ours per run (all back ms / most in 100 ms): list ${perRun('ours')}; watchlist ${perRun('ours-watchlist')}`, ...notes],
  };
}

/** The first watch request after the drop for each collection path (one per informer). */
function firstWatchPerPath(recs: RequestRecord[]): Map<string, number> {
  const firsts = new Map<string, number>();
  for (const r of recs) if (r.verb === 'watch' && !firsts.has(r.path)) firsts.set(r.path, r.at);
  return firsts;
}
