import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ReleaseDecodeError, decodeRelease, decodeStorageObject, encodeRelease, manifestObjects, releaseDetailsOf } from '../../src/helm';
import { releaseJson, releaseStorageObject, sandboxReleases } from '../support/helm-releases';

const FIXTURE = path.join(__dirname, '../fixtures/helm/pluto-secret.json');

describe("helm: decoding helm's storage format", () => {
  it('decodes a release Secret that helm 3 itself wrote (FairwindsOps/pluto test data): chart, values, manifest, notes', () => {
    const secret = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    const details = releaseDetailsOf(decodeStorageObject('secret', secret));
    assert.equal(details.name, 'test');
    assert.equal(details.chartName, 'helm3chart');
    assert.equal(details.chartVersion, '0.1.0');
    assert.equal(details.appVersion, '1.16.0');
    assert.equal(details.status, 'deployed');
    assert.deepEqual(details.userValues, {});
    assert.equal((details.computedValues.image as { repository: string }).repository, 'nginx');
    assert.match(details.notes, /Get the application URL/);
    const objects = manifestObjects(details.manifest);
    assert.ok(objects.some((o) => o.kind === 'Deployment' && o.name === 'test-helm3chart-v1beta1' && o.apiVersion === 'extensions/v1beta1'));
    assert.ok(objects.every((o) => o.source?.startsWith('helm3chart/templates/')));
  });

  it('round-trips through the encoder the sandbox uses (Secret: base64 twice; ConfigMap: once), and reads pre-compression JSON', () => {
    for (const { storage, spec } of sandboxReleases(Date.UTC(2026, 10, 28))) {
      const obj = releaseStorageObject(storage, spec) as { data: Record<string, string> };
      assert.deepEqual(decodeStorageObject(storage, obj), releaseJson(spec));
    }
    assert.equal(Buffer.from(encodeRelease({ a: 1 }), 'base64').subarray(0, 3).toString('hex'), '1f8b08');
    assert.deepEqual(decodeRelease(Buffer.from('{"name":"old"}').toString('base64')), { name: 'old' });
    assert.deepEqual(decodeRelease(gzipSync('{"name":"z"}').toString('base64')), { name: 'z' });
  });

  it('bad payloads fail with a sentence, not a stack trace', () => {
    assert.throws(() => decodeStorageObject('secret', { data: {} }), (e: Error) => e instanceof ReleaseDecodeError && /no data.release/.test(e.message));
    assert.throws(() => decodeRelease('%%%'), /not base64/);
    assert.throws(() => decodeRelease(Buffer.from('not json').toString('base64')), /not a Helm 3 release/);
    const cut = gzipSync('{"name":"x"}').subarray(0, 12).toString('base64');
    assert.throws(() => decodeRelease(cut), /does not decompress/);
  });

  it("computed values are the chart's with the user's over them (maps merged, null deletes)", () => {
    const d = releaseDetailsOf({ chart: { values: { a: { b: 1, c: 2 }, d: 3, e: [1] } }, config: { a: { c: 9 }, d: null, e: [2] } });
    assert.deepEqual(d.computedValues, { a: { b: 1, c: 9 }, e: [2] });
  });
});
