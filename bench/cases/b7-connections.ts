/**
 * B7: 250 informers on one cluster, server allowing 100 streams per connection. Figures: TCP
 * connections the server holds once every watch is open, and the client's heap growth after gc,
 * ours against @kubernetes/client-node's informer (`bench/connection/b7-connections.ts`).
 */
import { runB7 } from '../connection/b7-connections';
import type { B7Result } from '../connection/b7-shape';
import { median, type CaseContext, type CaseResult, type Row, type Verdict } from '../support/harness';

export async function b7({ h, quick }: CaseContext): Promise<CaseResult> {
  const runs = quick ? 1 : 3;
  const results: Record<'ours' | 'reference', B7Result[]> = { ours: [], reference: [] };
  const failures: string[] = [];
  for (let r = 0; r < runs; r++)
    for (const which of r % 2 ? (['reference', 'ours'] as const) : (['ours', 'reference'] as const)) {
      h.progress.step(`B7 run ${r + 1}/${runs}: ${which}`);
      try {
        results[which].push(await runB7(which));
      } catch (err) {
        failures.push(`B7 ${which} run ${r + 1} failed: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
        h.progress.log(`  ${failures.at(-1)}`);
      }
    }
  h.progress.done();
  const m = (k: 'ours' | 'reference', f: (r: B7Result) => number) => (results[k].length ? median(results[k].map(f)) : null);
  const conns = m('ours', (r) => r.connections);
  const heap = m('ours', (r) => r.heapGrowth);
  const refHeap = m('reference', (r) => r.heapGrowth);
  const informers = results.ours[0]?.informers ?? 250;
  const target = Math.ceil(informers / 100);
  const rows: Row[] = [
    { case: 'B7', metric: 'TCP connections', unit: 'count', better: 'lower', ours: conns, reference: m('reference', (r) => r.connections), limit: target, runs },
    { case: 'B7', metric: 'heap after sync', unit: 'bytes', better: 'lower', ours: heap, reference: refHeap, limit: null, runs },
  ];
  const verdicts: Verdict[] = [
    { case: 'B7', metric: 'TCP connections', target: `<= ${target} (ceil(${informers}/100))`, met: conns !== null && conns <= target },
    { case: 'B7', metric: 'heap after sync', target: '<= reference', met: heap !== null && refHeap !== null && heap <= refHeap },
  ];
  return {
    rows,
    verdicts,
    notes: [
      `B7: ${informers} informers (50 namespaces x 5 types, 4 objects each) on one HTTP/2 server allowing 100 streams per connection (HTTP/1.1 allowed too); connections counted once every watch is open; heap = the client process's heap growth after gc, watches open`,
      ...failures,
    ],
  };
}
