/**
 * B6: 20 quiet resource types watched for 10 minutes; the server sends a BOOKMARK every minute
 * (to watches that ask for them) and nothing else changes. Every interval is scaled by one
 * factor (the server's seconds, its bookmark interval, our clock, the reference's 30 s watch
 * inactivity timeout). Figure: requests the server received from each client in the window.
 * Ours and the reference run at the same time, each in its own process.
 */
import type { ManyTask } from '../support/client-main';
import { median, type CaseContext, type CaseResult } from '../support/harness';
import { quietTypes } from '../support/resources';

export async function b6({ h, quick }: CaseContext): Promise<CaseResult> {
  const scale = quick ? 120 : 10;
  const windowMs = 600_000 / scale;
  const runs = quick ? 1 : 2;
  const namespace = 'quiet';
  await h.setup({
    collections: quietTypes.map((t) => ({ spec: t.spec, data: { gen: 'small' as const, count: 3, namespaces: [namespace] } })),
    watchMode: { mode: 'quiet', bookmarkIntervalMs: 60_000 / scale },
    // A server with streaming lists (1.32/1.34): one request lists and watches.
    watchList: true,
    msPerSecond: 1000 / scale,
  });
  const watches = quietTypes.map((t) => ({ spec: t.spec, namespace }));
  const counts: Record<'ours' | 'reference', number[]> = { ours: [], reference: [] };
  const detail: string[] = [];
  for (let r = 0; r < runs; r++) {
    h.progress.step(`B6 run ${r + 1}/${runs}: 20 types, 10 min at ${scale}x (${(windowMs / 1000).toFixed(0)} s)`);
    const clients = { ours: h.client(), reference: h.client() };
    const conns = { ours: h.conn('b6-ours'), reference: h.conn('b6-reference') };
    try {
      const t0 = await h.serverCall<number>('now');
      await Promise.all(
        (['ours', 'reference'] as const).map((kind) =>
          clients[kind].call('startMany', { kind, conn: conns[kind], watches, scale, restartOnErrorMs: 5000 } satisfies ManyTask),
        ),
      );
      const tick = setInterval(() => h.progress.note(`${Math.round((performance.now() - started) / 1000)} of ${Math.round(windowMs / 1000)} s`), 1000);
      const started = performance.now();
      await new Promise((res) => setTimeout(res, windowMs));
      clearInterval(tick);
      const t1 = t0 + windowMs;
      await Promise.all((['ours', 'reference'] as const).map((kind) => clients[kind].call('stopMany')));
      for (const kind of ['ours', 'reference'] as const) {
        const recs = (await h.requests(conns[kind].label, t0)).filter((x) => x.at <= t1);
        const lists = recs.filter((x) => x.verb === 'list').length;
        const streamingLists = recs.filter((x) => x.verb === 'watchlist').length;
        const watchReqs = recs.filter((x) => x.verb === 'watch').length;
        counts[kind].push(recs.length);
        detail.push(`${kind} ${lists} lists + ${streamingLists} streaming lists + ${watchReqs} watches`);
      }
      await h.serverCall('closeWatches');
    } finally {
      await Promise.all([clients.ours.stop(), clients.reference.stop()]);
    }
  }
  h.progress.done();
  const ours = median(counts.ours);
  const reference = median(counts.reference);
  return {
    rows: [{ case: 'B6', metric: 'requests', path: 'watchlist', unit: 'requests', better: 'lower', ours, reference, limit: null, runs }],
    verdicts: [{ case: 'B6', metric: 'requests', path: 'watchlist', target: '<= 0.1x reference', met: ours <= 0.1 * reference }],
    notes: [`B6: 10 min at ${scale}x; per run: ${detail.join('; ')}`],
  };
}
