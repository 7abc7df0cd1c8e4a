/**
 * B2: one watch streaming 100,000 MODIFIED events as fast as the server writes them; events
 * per second through to the handlers (first to last handler call). The limit reads the same
 * stream and only runs JSON.parse per line. Ours runs on both initial-list paths (paginated LIST
 * then a watch from its resourceVersion; one streaming list whose watch part carries the stream).
 */

type Runner = ClientKind | 'ours-watchlist';
import type { ClientKind, StreamResult, StreamTask, SyncPath } from '../support/client-main';
import { median, type CaseContext, type CaseResult, type Row, type Verdict } from '../support/harness';
import { configmaps } from '../support/resources';

export async function b2({ h, quick }: CaseContext): Promise<CaseResult> {
  const events = quick ? 30_000 : 100_000;
  const runs = quick ? 3 : 7;
  const namespace = 'stream';
  const setup = await h.setup({
    collections: [{ spec: configmaps.spec, data: { gen: 'configmaps', count: 1000, namespace } }],
    watchMode: { mode: 'stream' },
    streamEvents: events,
    watchList: true,
  });
  const fromRv = setup.stream!.fromRv;
  const runners: Runner[] = ['ours', 'ours-watchlist', 'reference', 'limit'];
  const results: Record<Runner, StreamResult[]> = { ours: [], 'ours-watchlist': [], reference: [], limit: [] };
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < runners.length; k++) {
      const runner = runners[(k + r) % runners.length];
      h.progress.step(`B2 run ${r + 1}/${runs}: ${runner}`);
      const kind: ClientKind = runner === 'ours-watchlist' ? 'ours' : runner;
      const path: SyncPath = runner === 'ours-watchlist' ? 'watchlist' : 'list';
      const task: StreamTask = { kind, conn: h.conn(`b2-${runner}`), spec: configmaps.spec, namespace, events, fromRv, path };
      results[runner].push(await h.once<StreamResult>('stream', task));
    }
  }
  h.progress.done();
  const m = (k: Runner) => median(results[k].map((r) => r.eventsPerSecond));
  const rows: Row[] = [];
  const verdicts: Verdict[] = [];
  for (const [path, runner] of [['list', 'ours'], ['watchlist', 'ours-watchlist']] as const) {
    const eps = { ours: m(runner), reference: m('reference'), limit: m('limit') };
    rows.push({ case: 'B2', metric: 'events per second', path, unit: 'events/s', better: 'higher', ...eps, runs });
    verdicts.push({
      case: 'B2',
      metric: 'events per second',
      path,
      target: '>= 1.0x reference and >= 0.5x limit',
      met: eps.ours >= eps.reference && eps.ours >= 0.5 * eps.limit,
    });
  }
  return {
    rows,
    verdicts,
    notes: [`B2: ${events} MODIFIED events of ${Math.round(setup.stream!.bytes)} bytes each`],
  };
}
