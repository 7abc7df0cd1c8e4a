/**
 * B1: initial sync of 10,000 ConfigMaps of about 1 KiB each with realistic managedFields.
 * Figures: time until synced, heap retained after sync (after GC). Each run forks one process
 * per client, in rotating order.
 */
import type { SyncResult, SyncTask, ClientKind } from '../support/client-main';
import { median, type CaseContext, type CaseResult } from '../support/harness';
import { configmaps } from '../support/resources';

export async function b1({ h, quick }: CaseContext): Promise<CaseResult> {
  const count = quick ? 5_000 : 10_000;
  const runs = quick ? 3 : 7;
  const namespace = 'shop';
  const setup = await h.setup({ collections: [{ spec: configmaps.spec, data: { gen: 'configmaps', count, namespace } }], watchMode: { mode: 'hold' } });
  const kinds: ClientKind[] = ['ours', 'reference', 'limit'];
  const results: Record<ClientKind, SyncResult[]> = { ours: [], reference: [], limit: [] };
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(k + r) % kinds.length];
      h.progress.step(`B1 run ${r + 1}/${runs}: ${kind}`);
      const task: SyncTask = { kind, conn: h.conn(`b1-${kind}`), spec: configmaps.spec, namespace, expect: count };
      results[kind].push(await h.once<SyncResult>('sync', task));
    }
  }
  h.progress.done();
  const m = (k: ClientKind, f: (r: SyncResult) => number) => median(results[k].map(f));
  const time = { ours: m('ours', (r) => r.ms), reference: m('reference', (r) => r.ms), limit: m('limit', (r) => r.ms) };
  const heap = { ours: m('ours', (r) => r.retainedBytes), reference: m('reference', (r) => r.retainedBytes), limit: m('limit', (r) => r.retainedBytes) };
  return {
    rows: [
      { case: 'B1', metric: 'time to synced', unit: 'ms', better: 'lower', ...time, runs },
      { case: 'B1', metric: 'retained heap', unit: 'bytes', better: 'lower', ...heap, runs },
    ],
    verdicts: [
      { case: 'B1', metric: 'time to synced', target: '<= 1.0x reference', met: time.ours <= time.reference },
      { case: 'B1', metric: 'retained heap', target: '<= 0.6x reference', met: heap.ours <= 0.6 * heap.reference },
    ],
    notes: [`B1: ${count} ConfigMaps, ${Math.round(setup.itemBytes)} bytes of JSON each (with managedFields)`],
  };
}
