/**
 * B2: one watch streaming 100,000 MODIFIED events as fast as the server writes them; events
 * per second through to the handlers (first to last handler call). The limit reads the same
 * stream and only runs JSON.parse per line.
 */
import type { ClientKind, StreamResult, StreamTask } from '../support/client-main';
import { median, type CaseContext, type CaseResult } from '../support/harness';
import { configmaps } from '../support/resources';

export async function b2({ h, quick }: CaseContext): Promise<CaseResult> {
  const events = quick ? 30_000 : 100_000;
  const runs = quick ? 3 : 7;
  const namespace = 'stream';
  const setup = await h.setup({
    collections: [{ spec: configmaps.spec, data: { gen: 'configmaps', count: 1000, namespace } }],
    watchMode: { mode: 'stream' },
    streamEvents: events,
  });
  const fromRv = setup.stream!.fromRv;
  const kinds: ClientKind[] = ['ours', 'reference', 'limit'];
  const results: Record<ClientKind, StreamResult[]> = { ours: [], reference: [], limit: [] };
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(k + r) % kinds.length];
      h.progress.step(`B2 run ${r + 1}/${runs}: ${kind}`);
      const task: StreamTask = { kind, conn: h.conn(`b2-${kind}`), spec: configmaps.spec, namespace, events, fromRv };
      results[kind].push(await h.once<StreamResult>('stream', task));
    }
  }
  h.progress.done();
  const m = (k: ClientKind) => median(results[k].map((r) => r.eventsPerSecond));
  const eps = { ours: m('ours'), reference: m('reference'), limit: m('limit') };
  return {
    rows: [{ case: 'B2', metric: 'events per second', unit: 'events/s', better: 'higher', ...eps, runs }],
    verdicts: [
      {
        case: 'B2',
        metric: 'events per second',
        target: '>= 1.0x reference and >= 0.5x limit',
        met: eps.ours >= eps.reference && eps.ours >= 0.5 * eps.limit,
      },
    ],
    notes: [`B2: ${events} MODIFIED events of ${Math.round(setup.stream!.bytes)} bytes each`],
  };
}
