/**
 * B14: 1,000 Helm releases x 5 revisions of 100 KiB each, in helm's Secret format, on a server of
 * its own (support/helm-server.ts: payloads shared, lists made object by object, never held).
 * In a client process (the extension host's stand-in), the Helm Releases section is opened on a
 * started WatchManager: time until every release is listed with its watches synced; the bytes
 * the server wrote to that client against the bytes of a full list of those Secrets (computed
 * per object: the payloads a client reading them would download); the heap the open section
 * keeps after GC. Targets (PERF.md): within 2 s; at most 2%; at most 10 MiB.
 */
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import { join } from 'node:path';
import type { HelmListResult, HelmListTask } from '../support/helm-client';
import { HelmServer } from '../support/helm-server';
import { median, ROOT, type CaseContext, type CaseResult } from '../support/harness';

const CERTS = join(ROOT, 'test', 'support', 'certs');

export async function b14({ h, quick }: CaseContext): Promise<CaseResult> {
  const releases = quick ? 200 : 1000;
  const revisions = 5;
  const runs = quick ? 1 : 3;
  const server = new HelmServer({ releases, revisions, payloadBytes: 100 * 1024, namespaces: 100 }, { cert: readFileSync(join(CERTS, 'server.pem'), 'utf8'), key: readFileSync(join(CERTS, 'server-key.pem'), 'utf8') });
  const port = await server.listen();
  const fullList = server.fullListBytes();
  await checkFullSize(server, port, h.caPem);
  const results: (HelmListResult & { wire: number })[] = [];
  try {
    for (let r = 0; r < runs; r++) {
      h.progress.step(`B14 run ${r + 1}/${runs}: ${releases} releases x ${revisions} revisions`);
      const conn = { ...h.conn('b14'), url: `https://127.0.0.1:${port}` };
      const res = await h.once<HelmListResult>('helmList', { conn, releases, revisions } satisfies HelmListTask);
      if (res.releases !== releases || res.revisions !== releases * revisions) throw new Error(`B14 listed ${res.releases} releases / ${res.revisions} revisions, not ${releases} / ${releases * revisions}`);
      results.push({ ...res, wire: server.bytesByToken.get(`bench-${conn.label}`) ?? 0 });
    }
  } finally {
    h.progress.done();
    await server.close();
  }
  const ms = median(results.map((x) => x.ms));
  const wire = median(results.map((x) => x.wire));
  const growth = median(results.map((x) => x.heapAfter - x.heapBefore));
  const MiB = 1 << 20;
  return {
    rows: [
      { case: 'B14', metric: 'opening to release list', unit: 'ms', better: 'lower', ours: ms, reference: null, limit: null, runs },
      { case: 'B14', metric: 'bytes on the wire', unit: 'bytes', better: 'lower', ours: wire, reference: null, limit: fullList, runs },
      { case: 'B14', metric: 'heap growth', unit: 'bytes', better: 'lower', ours: growth, reference: null, limit: null, runs },
    ],
    verdicts: [
      { case: 'B14', metric: 'opening to release list', target: '<= 2 s', met: ms <= 2000 },
      { case: 'B14', metric: 'bytes on the wire', target: '<= 0.02x full list', met: wire <= 0.02 * fullList },
      { case: 'B14', metric: 'heap growth', target: '<= 10 MiB', met: growth <= 10 * MiB },
    ],
    notes: [
      `B14: ${releases} releases x ${revisions} revisions of 100 KiB (Secret data ${Math.round(server.secretJsonLength(0) / 1024)} KiB as JSON); full list ${(fullList / MiB).toFixed(1)} MiB; per run: ${results.map((x) => `${Math.round(x.ms)} ms, ${(x.wire / 1024).toFixed(0)} KiB, heap +${((x.heapAfter - x.heapBefore) / MiB).toFixed(1)} MiB`).join('; ')}`,
    ],
  };
}

/** The computed full-list size holds: a whole page of Secrets as served is the sum of their computed sizes. */
async function checkFullSize(server: HelmServer, port: number, ca: string): Promise<void> {
  const body = await new Promise<string>((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, path: '/api/v1/secrets?labelSelector=owner%3Dhelm&limit=3', ca, headers: { Authorization: 'Bearer bench-b14-check', Accept: 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
  const list = JSON.parse(body) as { items: { metadata: { name: string; namespace: string } }[] };
  const served = list.items.map((o) => JSON.stringify(o).length);
  const computed = list.items.map((o) => server.secretJsonLength(server.indexOf(o.metadata.namespace, o.metadata.name)));
  if (JSON.stringify(served) !== JSON.stringify(computed)) throw new Error(`B14: the computed Secret sizes ${computed.join(', ')} are not the served ${served.join(', ')}`);
}
