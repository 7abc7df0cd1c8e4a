import * as assert from 'node:assert/strict';
import * as https from 'node:https';
import { decodeStorageObject, releasesFrom, revisionRecordOf, type RevisionRecord } from '../../src/helm';
import { METADATA_LIST_ACCEPT, METADATA_OBJECT_ACCEPT } from '../../src/informer';
import { FakeApiServer } from './apiserver';
import { releaseStorageObject, sandboxReleases } from './helm-releases';

/**
 * The local API server answers client-go's metadata informer as kube-apiserver 1.34.9 does
 * (test/real/helm.real.ts checks the real one): a LIST asked for as PartialObjectMetadataList,
 * a GET or WATCH as PartialObjectMetadata; and the sandbox's release Secrets are helm's format.
 */
function get(server: FakeApiServer, path: string, accept?: string): Promise<{ status: number; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: 'Bearer test-token' };
    if (accept) headers.Accept = accept;
    const req = https.request(server.url + path, { headers, ca: server.caPem, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, lines: text.split('\n').filter((l) => l !== '') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('fake API server: metadata-only lists and watches (Helm releases)', () => {
  let server: FakeApiServer;
  beforeEach(async () => {
    server = await FakeApiServer.start();
    server.create('namespaces', { metadata: { name: 'shop' } });
    for (const { storage, spec } of sandboxReleases(Date.now()).filter((r) => r.spec.namespace === 'shop')) server.create(storage === 'secret' ? 'secrets' : 'configmaps', releaseStorageObject(storage, spec));
    server.create('secrets', { metadata: { namespace: 'shop', name: 'db' }, data: { password: 'aHVudGVyMg==' } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('a LIST with the metadata Accept is a PartialObjectMetadataList of labels without data; without it, whole Secrets', async () => {
    const meta = await get(server, '/api/v1/namespaces/shop/secrets?labelSelector=owner%3Dhelm', METADATA_LIST_ACCEPT);
    assert.equal(meta.status, 200);
    const list = JSON.parse(meta.lines[0]);
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.equal(list.apiVersion, 'meta.k8s.io/v1');
    assert.equal(list.items.length, 2);
    for (const item of list.items) {
      assert.equal(item.kind, 'PartialObjectMetadata');
      assert.equal(item.data, undefined);
      assert.equal(item.metadata.labels.owner, 'helm');
    }
    const releases = releasesFrom(list.items.map((o: never) => revisionRecordOf(o, 'secret')).filter((r: RevisionRecord | undefined) => r));
    assert.deepEqual(releases.map((r) => `${r.name} ${r.latest.revision} ${r.latest.status}`), ['web 2 deployed']);
    const whole = JSON.parse((await get(server, '/api/v1/namespaces/shop/secrets?labelSelector=owner%3Dhelm')).lines[0]);
    assert.equal(whole.kind, 'SecretList');
    assert.equal(decodeStorageObject('secret', whole.items[1]).version, 2);
  });

  it('a WATCH with the metadata Accept sends PartialObjectMetadata objects; a GET too', async () => {
    const watch = await get(server, '/api/v1/namespaces/shop/secrets?watch=true&labelSelector=owner%3Dhelm&timeoutSeconds=1', METADATA_OBJECT_ACCEPT);
    const events = watch.lines.map((l) => JSON.parse(l)).filter((e) => e.type === 'ADDED');
    assert.equal(events.length, 2);
    for (const e of events) {
      assert.equal(e.object.kind, 'PartialObjectMetadata');
      assert.equal(e.object.data, undefined);
    }
    const one = JSON.parse((await get(server, '/api/v1/namespaces/shop/secrets/sh.helm.release.v1.web.v1', METADATA_OBJECT_ACCEPT)).lines[0]);
    assert.deepEqual(Object.keys(one), ['kind', 'apiVersion', 'metadata']);
  });
});
