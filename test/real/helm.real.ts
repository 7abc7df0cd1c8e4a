import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ResourceType } from '../../src/informer';
import { decodeStorageObject, releasesFrom, revisionRecordOf, type RevisionRecord } from '../../src/helm';
import { releaseStorageObject, type ReleaseSpec } from '../support/helm-releases';
import { until } from '../support/until';
import { PROTOCOLS, REAL_BOUND_MS, RealRig, useControlPlane } from './support';

/**
 * Helm releases from labels: the informer of `owner=helm` Secrets asks for PartialObjectMetadata
 * (client-go's metadata informer's Accept), so the real kube-apiserver sends each revision's
 * labels and never its payload, on the list and on the watch.
 */
const SECRETS: ResourceType = { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true };
const RELEASES = 12;
const REVISIONS = 2;

function spec(ns: string, i: number, revision: number): ReleaseSpec {
  return {
    name: `app-${i}`,
    namespace: ns,
    revision,
    status: revision === REVISIONS ? 'deployed' : 'superseded',
    // Random bytes as hex: gzip cannot shrink them much, so each payload is tens of KiB as a chart's is.
    chart: { name: 'app', version: '1.0.0', appVersion: '1.0', values: { blob: randomBytes(12_000).toString('hex') } },
    config: { replicas: revision },
    manifest: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-${i}\n`,
    at: Date.now() - (REVISIONS - revision) * 60_000,
  };
}

describe('[real] Helm releases: a metadata-only watch of release Secrets', function () {
  this.timeout(240_000);
  const plane = useControlPlane();
  let ns: string;

  before(async () => {
    const p = plane();
    ns = await p.setup.namespace();
    for (let i = 0; i < RELEASES; i++) {
      for (let rev = 1; rev <= REVISIONS; rev++) await p.admin.post(`/api/v1/namespaces/${ns}/secrets`, releaseStorageObject('secret', spec(ns, i, rev)));
    }
    // Not helm's: outside the selector.
    await p.admin.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'db' }, type: 'Opaque', data: { password: Buffer.from('hunter2').toString('base64') } });
  });

  for (const { protocol, label } of PROTOCOLS) {
    it(`Helm [real] ${label}: the wire carries labels only (no data, a few % of the full list's bytes), on the list and on the watch`, async () => {
      const p = plane();
      const informer = { labelSelector: 'owner=helm', streamingList: 'never' as const };
      const full = await RealRig.start({ plane: p, protocol, relay: true, namespaces: [ns], type: SECRETS, informer });
      let meta: RealRig | undefined;
      try {
        await full.synced();
        const fullBytes = full.relay!.bytesFromServer;
        assert.ok(full.informer.list().every((o) => (o as { data?: unknown }).data !== undefined), 'the full list carries every payload');

        // A paginated LIST (PartialObjectMetadataList) and the streaming list (a watch of PartialObjectMetadata).
        for (const streamingList of ['never', 'always'] as const) {
          await meta?.close();
          meta = await RealRig.start({ plane: p, protocol, relay: true, namespaces: [ns], type: SECRETS, informer: { ...informer, streamingList, metadataOnly: true } });
          await meta.synced();
          const metaBytes = meta.relay!.bytesFromServer;
          const objects = meta.informer.list();
          assert.equal(objects.length, RELEASES * REVISIONS);
          for (const o of objects) {
            assert.equal((o as { data?: unknown }).data, undefined, `${o.metadata.name} came with its data`);
            assert.equal(o.kind, 'PartialObjectMetadata');
            assert.equal(o.metadata.labels?.owner, 'helm');
          }
          assert.ok(metaBytes < fullBytes * 0.05, `${streamingList === 'never' ? 'LIST' : 'streaming list'}: ${metaBytes} bytes metadata-only; ${fullBytes} bytes whole`);
        }
        meta = meta!;
        const objects = meta.informer.list();
        const releases = releasesFrom(objects.map((o) => revisionRecordOf(o, 'secret')).filter((r): r is RevisionRecord => r !== undefined));
        assert.equal(releases.length, RELEASES);
        assert.ok(releases.every((r) => r.latest.revision === REVISIONS && r.latest.status === 'deployed' && r.revisions.length === REVISIONS));

        // The watch: a new revision arrives as its labels only.
        const before = meta.relay!.bytesFromServer;
        const next = spec(ns, 0, REVISIONS + 1);
        next.status = 'pending-upgrade';
        const created = await p.admin.post(`/api/v1/namespaces/${ns}/secrets`, releaseStorageObject('secret', next));
        await until(() => meta!.informer.get(ns, `sh.helm.release.v1.app-0.v${REVISIONS + 1}`) !== undefined, 'the new revision in the cache', REAL_BOUND_MS);
        const seen = meta.informer.get(ns, `sh.helm.release.v1.app-0.v${REVISIONS + 1}`)!;
        assert.equal((seen as { data?: unknown }).data, undefined);
        assert.equal(seen.metadata.labels?.status, 'pending-upgrade');
        const payloadBytes = JSON.stringify((created as { data?: unknown }).data).length;
        assert.ok(meta.relay!.bytesFromServer - before < payloadBytes / 4, `the watch event took ${meta.relay!.bytesFromServer - before} bytes; the payload is ${payloadBytes}`);
        // Opening it reads the one Secret whole, and helm's format decodes.
        const whole = await meta.transport!.getJson<{ data?: Record<string, unknown> }>(`/api/v1/namespaces/${ns}/secrets/${seen.metadata.name}`, {}, new AbortController().signal);
        assert.equal(decodeStorageObject('secret', whole).version, REVISIONS + 1);
        await p.admin.delete(`/api/v1/namespaces/${ns}/secrets/${seen.metadata.name}`);
      } finally {
        await meta?.close();
        await full.close();
      }
    });
  }
});
