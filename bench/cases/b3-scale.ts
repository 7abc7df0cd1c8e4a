/**
 * B3: 100,000 Pods across 1,000 namespaces, watched cluster-wide. Figures: time to synced, and
 * heap retained per cached object against the object's JSON size (as served, managedFields
 * included) as the limit.
 */
import type { ClientKind, SyncResult, SyncTask } from '../support/client-main';
import { median, type CaseContext, type CaseResult } from '../support/harness';
import { podsResource } from '../support/resources';

export async function b3({ h, quick }: CaseContext): Promise<CaseResult> {
  const count = quick ? 10_000 : 100_000;
  const namespaces = quick ? 100 : 1000;
  const runs = quick ? 1 : 3;
  h.progress.step(`B3 rendering ${count} Pods`);
  const setup = await h.setup({ collections: [{ spec: podsResource.spec, data: { gen: 'pods', count, namespaces } }], watchMode: { mode: 'hold' } });
  // The same 100,000 Pods by one streaming list: B8.
  const kinds: ClientKind[] = ['ours', 'reference', 'limit'];
  const results: Record<ClientKind, SyncResult[]> = { ours: [], reference: [], limit: [] };
  const failures: string[] = [];
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(k + r) % kinds.length];
      h.progress.step(`B3 run ${r + 1}/${runs}: ${kind}`);
      const task: SyncTask = { kind, conn: h.conn(`b3-${kind}`), spec: podsResource.spec, expect: count };
      try {
        results[kind].push(await h.once<SyncResult>('sync', task));
      } catch (err) {
        const msg = (err instanceof Error ? err.message : String(err)).split('\n')[0];
        failures.push(`B3 ${kind} run ${r + 1} failed: ${msg}`);
        h.progress.log(`  ${failures.at(-1)}`);
      }
    }
  }
  h.progress.done();
  const serverRss = await h.serverCall<number>('maxRss');
  const gib = (b: number) => `${(b / 2 ** 30).toFixed(1)} GiB`;
  const peak = (k: ClientKind) => (results[k].length ? gib(Math.max(...results[k].map((r) => r.maxRss))) : 'failed');
  const rss = `B3 peak RSS: ours ${peak('ours')}, reference ${peak('reference')}, limit ${peak('limit')}, server ${gib(serverRss)} (one client at a time)`;
  const m = (k: ClientKind, f: (r: SyncResult) => number) => (results[k].length ? median(results[k].map(f)) : null);
  const time = { ours: m('ours', (r) => r.ms), reference: m('reference', (r) => r.ms), limit: m('limit', (r) => r.ms) };
  const perObject = (r: SyncResult) => r.retainedBytes / r.objects;
  const heap = { ours: m('ours', perObject), reference: m('reference', perObject), limit: setup.itemBytes };
  return {
    rows: [
      { case: 'B3', metric: 'time to synced', path: 'list', unit: 'ms', better: 'lower', ...time, runs },
      { case: 'B3', metric: 'heap per object', path: 'list', unit: 'bytes', better: 'lower', ...heap, runs },
    ],
    verdicts: [
      { case: 'B3', metric: 'time to synced', path: 'list', target: 'completes', met: results.ours.length === runs },
      { case: 'B3', metric: 'heap per object', path: 'list', target: '<= 1.5x object JSON size', met: heap.ours !== null && heap.ours <= 1.5 * heap.limit },
    ],
    notes: [`B3: ${count} Pods in ${namespaces} namespaces, ${Math.round(setup.itemBytes)} bytes of JSON each (with managedFields)`, rss, ...failures],
  };
}
