import * as assert from 'node:assert/strict';
import * as https from 'node:https';
import { FakeApiServer } from './apiserver';
import { kubectlOnPath } from './apiserver/protobuf/kubectl-descriptors';
import { until } from './until';

/**
 * What kubectl 1.32 sends and asks for, answered as kube-apiserver does (issue 29 item 11), over
 * raw HTTPS so that no client is involved: objects in protobuf (the bodies below are kubectl's,
 * recorded with -v=9), Tables for `kubectl get`, the OpenAPI v3 documents `kubectl apply` reads,
 * and the 415 a media type the server cannot read gets (recorded on 1.34.9).
 * test/sandbox/kubectl.test.ts runs kubectl itself. The server reads protobuf through the
 * message descriptors of the kubectl on PATH, so the protobuf test is skipped without one.
 */

/** `kubectl create deployment web --image=nginx:1.27 --port=8080 --replicas=0`. */
const DEPLOYMENT_PB = '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412c5010a260a0377656212001a0764656661756c7422002a003200380042005a0a0a036170701203776562128c010800120c0a0a0a0361707012037765621a720a1c0a0012001a0022002a003200380042005a0a0a036170701203776562125212340a056e67696e78120a6e67696e783a312e32372a00320b0a00100018903f22002a0042006a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200';
/** `kubectl create service clusterip web --tcp=80:http` (a named targetPort: an IntOrString). */
const SERVICE_PB =
  '6b3873000a0d0a02763112075365727669636512730a260a0377656212001a0764656661756c7422002a003200380042005a0a0a03617070120377656212450a1e0a0738302d6874747012035443501850220a080110001a04687474702800120a0a0361707012037765621a002209436c757374657249503a00420052005a00600068001a020a001a002200';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // Arbitrary JSON whose shape each test asserts on.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

function send(server: FakeApiServer, method: string, path: string, opts: { body?: Buffer; contentType?: string; accept?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: 'Bearer test-token' };
    if (opts.contentType) headers['Content-Type'] = opts.contentType;
    if (opts.accept) headers.Accept = opts.accept;
    const req = https.request(server.url + path, { method, headers, ca: server.caPem, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text && res.headers['content-type'] === 'application/json' ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('fake API server: what kubectl sends and asks for', () => {
  let server: FakeApiServer;
  beforeEach(async () => {
    server = await FakeApiServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('U11 an object sent as protobuf is stored as its JSON: pointers kept at 0, omitempty values left out, a named port kept; bad protobuf gets 400', async function () {
    if (!kubectlOnPath()) return this.skip(); // no kubectl on PATH: the server has no protobuf descriptors to read these with
    const d = await send(server, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: Buffer.from(DEPLOYMENT_PB, 'hex'), contentType: PROTOBUF, accept: `${PROTOBUF},application/json` });
    assert.equal(d.status, 201, JSON.stringify(d.json));
    assert.equal(d.headers['content-type'], 'application/json');
    assert.deepEqual(d.json.spec, {
      replicas: 0,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080 }], resources: {} }] } },
      strategy: {},
    });
    assert.match(d.json.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const s = await send(server, 'POST', '/api/v1/namespaces/default/services', { body: Buffer.from(SERVICE_PB, 'hex'), contentType: PROTOBUF });
    assert.equal(s.status, 201, JSON.stringify(s.json));
    assert.deepEqual(s.json.spec.ports, [{ name: '80-http', protocol: 'TCP', port: 80, targetPort: 'http' }]);
    const bad = await send(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: Buffer.from('{"metadata":{}}'), contentType: PROTOBUF });
    assert.equal(bad.status, 400);
    assert.equal(server.list('configmaps').length, 0);
  });

  it('U11 a body in a media type the server cannot read gets 415 UnsupportedMediaType, worded as 1.34.9 words it', async () => {
    const r = await send(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: Buffer.from('x'), contentType: 'text/plain' });
    assert.equal(r.status, 415);
    assert.deepEqual(r.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      reason: 'UnsupportedMediaType',
      code: 415,
    });
  });

  it('U11 a list or get asked for as a Table answers with the columns kubectl prints and PartialObjectMetadata rows', async () => {
    server.create('pods', { metadata: { namespace: 'default', name: 'web-1' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] }, status: { phase: 'Running', podIP: '10.0.0.7', containerStatuses: [{ name: 'c', ready: true, restartCount: 2, state: { running: {} } }] } });
    const list = await send(server, 'GET', '/api/v1/pods?limit=500', { accept: TABLE });
    assert.equal(list.status, 200);
    assert.equal(list.json.kind, 'Table');
    assert.equal(list.json.apiVersion, 'meta.k8s.io/v1');
    assert.equal(list.json.metadata.resourceVersion, server.resourceVersion);
    assert.deepEqual(
      list.json.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}:${c.priority}`),
      ['NAME:0', 'READY:0', 'STATUS:0', 'RESTARTS:0', 'AGE:0', 'IP:1', 'NODE:1', 'NOMINATED NODE:1', 'READINESS GATES:1'],
    );
    assert.deepEqual(list.json.rows[0].cells.slice(0, 4), ['web-1', '1/1', 'Running', '2']);
    assert.deepEqual(list.json.rows[0].cells.slice(5, 7), ['10.0.0.7', 'node-1']);
    assert.equal(list.json.rows[0].object.kind, 'PartialObjectMetadata');
    assert.equal(list.json.rows[0].object.metadata.name, 'web-1');
    const one = await send(server, 'GET', '/api/v1/namespaces/default/pods/web-1?includeObject=None', { accept: TABLE });
    assert.equal(one.json.rows.length, 1);
    assert.equal(one.json.rows[0].object, undefined);
    const plain = await send(server, 'GET', '/api/v1/namespaces/default/pods/web-1');
    assert.equal(plain.json.kind, 'Pod');
  });

  it('U11 a watch asked for as a Table sends one-row Tables, the column definitions in the first event only', async () => {
    server.create('configmaps', { metadata: { namespace: 'default', name: 'a' }, data: { x: '1' } });
    const lines: string[] = [];
    let buffered = '';
    const req = https.request(`${server.url}/api/v1/namespaces/default/configmaps?watch=true`, { headers: { Authorization: 'Bearer test-token', Accept: TABLE }, ca: server.caPem, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buffered += c;
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        lines.push(...parts);
      });
    });
    req.on('error', () => undefined);
    req.end();
    try {
      await until(() => lines.length >= 1 || undefined, 'the first event');
      server.create('configmaps', { metadata: { namespace: 'default', name: 'b' }, data: { x: '1', y: '2' } });
      await until(() => lines.length >= 2 || undefined, 'the second event');
      const [first, second] = lines.map((l) => JSON.parse(l));
      assert.equal(first.type, 'ADDED');
      assert.equal(first.object.kind, 'Table');
      assert.deepEqual(first.object.columnDefinitions.map((c: { name: string }) => c.name), ['NAME', 'DATA', 'AGE']);
      assert.deepEqual(first.object.rows[0].cells.slice(0, 2), ['a', '1']);
      assert.equal(second.object.columnDefinitions, null);
      assert.deepEqual(second.object.rows[0].cells.slice(0, 2), ['b', '2']);
      assert.equal(second.object.metadata.resourceVersion, server.get('configmaps', 'default', 'b')?.metadata.resourceVersion);
    } finally {
      req.destroy();
    }
  });

  it('U11 /openapi/v3 indexes each served group-version; a document has PATCH with fieldValidation and the strategic merge keys', async () => {
    const index = await send(server, 'GET', '/openapi/v3');
    assert.equal(index.status, 200);
    assert.match(index.json.paths['apis/apps/v1'].serverRelativeURL, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    assert.ok(index.json.paths['api/v1']);
    const apps = await send(server, 'GET', index.json.paths['apis/apps/v1'].serverRelativeURL);
    assert.equal(apps.status, 200);
    const patch = apps.json.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.ok(patch.parameters.some((p: { name: string; in: string }) => p.name === 'fieldValidation' && p.in === 'query'));
    assert.ok(patch.requestBody.content['application/strategic-merge-patch+json']);
    const containers = apps.json.components.schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
    assert.equal((await send(server, 'GET', '/openapi/v3/apis/nothing.example.com/v1')).status, 404);
  });
});
