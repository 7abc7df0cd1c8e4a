import * as assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { kubectlMessages, kubectlOnPath, messageTableOf } from './apiserver/protobuf/kubectl-descriptors';
import { PROTOBUF, readBody } from './apiserver/request-body';

/**
 * U11: the local API server reads kubectl's protobuf through the message descriptors the kubectl
 * binary on PATH embeds (gzipped FileDescriptorProtos), never through a table kept in this
 * repository. The tests that read the real binary are skipped without a kubectl on PATH.
 */

function varint(v: number): Buffer {
  const out: number[] = [];
  for (; v >= 0x80; v >>>= 7) out.push((v & 0x7f) | 0x80);
  return Buffer.from([...out, v]);
}
/** A protobuf field: tag then a varint or length-delimited value. */
function field(n: number, value: number | string | Buffer): Buffer {
  if (typeof value === 'number') return Buffer.concat([varint(n << 3), varint(value)]);
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value);
  return Buffer.concat([varint((n << 3) | 2), varint(bytes.length), bytes]);
}
/** Go's gzip header (what the scan looks for) and a deflated descriptor. */
const goGzip = (data: Buffer): Buffer => {
  const gz = gzipSync(data);
  gz[4] = gz[5] = gz[6] = gz[7] = 0; // no mtime
  gz[8] = 2; // best compression
  gz[9] = 0xff; // unknown OS
  return gz;
};

describe('fake API server: protobuf descriptors from the local kubectl', () => {
  it('U11 the kubectl on PATH yields core/v1 ConfigMap (data a map of strings) and apps/v1 DeploymentSpec (replicas an optional int32)', function () {
    if (!kubectlOnPath()) return this.skip(); // no kubectl on PATH: no descriptors to read
    const messages = kubectlMessages();
    assert.ok('table' in messages, 'missing' in messages ? messages.missing : '');
    const configMap = messages.table.get('api.core.v1.ConfigMap');
    assert.deepEqual(configMap?.get(1), { name: 'metadata', type: 'apimachinery.pkg.apis.meta.v1.ObjectMeta', label: 'optional' });
    assert.equal(configMap?.get(2)?.name, 'data');
    assert.equal(configMap?.get(2)?.type, '{string,string}');
    assert.equal(configMap?.get(3)?.type, '{string,bytes}', 'binaryData');
    const spec = messages.table.get('api.apps.v1.DeploymentSpec');
    assert.deepEqual(spec?.get(1), { name: 'replicas', type: 'int32', label: 'optional' });
    assert.deepEqual(messages.table.get('api.apps.v1.Deployment')?.get(2), { name: 'spec', type: 'api.apps.v1.DeploymentSpec', label: 'optional' });
    assert.equal(messages.table.get('api.core.v1.PodSpec')?.get(2)?.type, '[]api.core.v1.Container');
    assert.equal(messages.table.get('apimachinery.pkg.runtime.Unknown')?.get(1)?.name, 'typeMeta');
  });

  it('U11 a binary is scanned for gzipped descriptors: Kubernetes generated.proto files are kept, others and broken members skipped', () => {
    const entry = Buffer.concat([field(1, 'LabelsEntry'), field(2, Buffer.concat([field(1, 'key'), field(3, 1), field(4, 1), field(5, 9)])), field(2, Buffer.concat([field(1, 'value'), field(3, 2), field(4, 1), field(5, 9)])), field(7, field(7, 1))]);
    const message = Buffer.concat([field(1, 'Thing'), field(2, Buffer.concat([field(1, 'labels'), field(3, 1), field(4, 3), field(5, 11), field(6, '.k8s.io.api.demo.v1.Thing.LabelsEntry')])), field(2, Buffer.concat([field(1, 'count'), field(3, 2), field(4, 1), field(5, 5)])), field(3, entry)]);
    const kube = Buffer.concat([field(1, 'k8s.io/api/demo/v1/generated.proto'), field(2, 'k8s.io.api.demo.v1'), field(4, message)]);
    const other = Buffer.concat([field(1, 'example.com/other/generated.proto'), field(2, 'other'), field(4, Buffer.concat([field(1, 'Other')]))]);
    const broken = goGzip(kube).subarray(0, 20);
    const binary = Buffer.concat([Buffer.from('ELF...'), goGzip(other), broken, Buffer.alloc(7), goGzip(kube), Buffer.from('tail')]);
    const table = messageTableOf(binary);
    assert.deepEqual([...table.keys()].sort(), ['api.demo.v1.Thing', 'api.demo.v1.Thing.LabelsEntry']);
    assert.deepEqual(table.get('api.demo.v1.Thing')?.get(1), { name: 'labels', type: '{string,string}', label: 'repeated' });
    assert.deepEqual(table.get('api.demo.v1.Thing')?.get(2), { name: 'count', type: 'int32', label: 'optional' });
  });

  it('U11 without descriptors (no kubectl) a protobuf body gets the 415 a real server gives an unreadable type, saying why', () => {
    const read = readBody('POST', PROTOBUF, Buffer.from('k8s\0'), () => ({ missing: 'no kubectl on PATH' }));
    assert.equal(read.ok, false);
    assert.ok(!read.ok);
    assert.equal(read.status.code, 415);
    assert.equal(read.status.reason, 'UnsupportedMediaType');
    assert.equal(
      read.status.message,
      "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf (the sandbox reads protobuf only through the local kubectl's own message descriptors: no kubectl on PATH)",
    );
    const json = readBody('POST', 'application/json', Buffer.from('{}'), () => ({ missing: 'no kubectl on PATH' }));
    assert.ok(json.ok, 'JSON bodies are read without descriptors');
  });
});
