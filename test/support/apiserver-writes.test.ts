import * as assert from 'node:assert/strict';
import * as https from 'node:https';
import { FakeApiServer, type KubeObjectJson } from './apiserver';

/**
 * The local API server's writes against the wording recorded from kube-apiserver 1.34.9
 * (test/support/apiserver/writes-1.34.md), over raw HTTPS so that nothing of the client is
 * involved.
 */

interface Reply {
  status: number;
  // The body is arbitrary JSON whose shape each test asserts on.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

function send(server: FakeApiServer, method: string, path: string, body?: unknown, contentType = 'application/json', userAgent?: string): Promise<Reply> {
  const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: 'Bearer test-token' };
    if (data !== undefined) headers['Content-Type'] = contentType;
    if (userAgent !== undefined) headers['User-Agent'] = userAgent;
    const req = https.request(server.url + path, { method, headers, ca: server.caPem, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

function managers(obj: KubeObjectJson): Record<string, unknown> {
  return Object.fromEntries((obj.metadata.managedFields as { manager: string; operation: string; fieldsV1: unknown }[]).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));
}

describe('fake API server: writes (kube-apiserver 1.34 wording)', () => {
  let server: FakeApiServer;
  beforeEach(async () => {
    server = await FakeApiServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('create: 201 with uid, resourceVersion and the creator as field manager; 409 AlreadyExists; a resourceVersion is refused', async () => {
    const created = await send(server, 'POST', `${CM}?fieldManager=kube-watch`, { metadata: { name: 'web', labels: { a: '1' } }, data: { x: '1' } });
    assert.equal(created.status, 201);
    assert.equal(created.json.kind, 'ConfigMap');
    assert.match(created.json.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(managers(created.json), { 'kube-watch/Update': { 'f:data': { '.': {}, 'f:x': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } });
    const again = await send(server, 'POST', CM, { metadata: { name: 'web' } });
    assert.equal(again.status, 409);
    assert.deepEqual(again.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "web" already exists', reason: 'AlreadyExists', details: { name: 'web', kind: 'configmaps' }, code: 409 });
    const withRv = await send(server, 'POST', CM, { metadata: { name: 'other', resourceVersion: '5' } });
    assert.equal(withRv.status, 500);
    assert.equal(withRv.json.message, 'resourceVersion should not be set on objects to be created');
    const unnamed = await send(server, 'POST', CM, { metadata: {} }, 'application/json', 'curl/8.14');
    assert.equal(unnamed.status, 422);
  });

  it('update: the resourceVersion precondition (409 Conflict as the real server words it), name and namespace must match the URL, 404 for a missing object', async () => {
    const cm = server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { x: '1' } });
    server.update('configmaps', { ...cm, data: { x: '2' } });
    const stale = await send(server, 'PUT', `${CM}/web`, { ...cm, data: { x: '3' } });
    assert.equal(stale.status, 409);
    assert.deepEqual(stale.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on configmaps "web": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'web', kind: 'configmaps' },
      code: 409,
    });
    const unconditional = await send(server, 'PUT', `${CM}/web`, { metadata: { name: 'web' }, data: { x: '4' } });
    assert.equal(unconditional.status, 200);
    assert.deepEqual(unconditional.json.data, { x: '4' });
    const renamed = await send(server, 'PUT', `${CM}/web`, { metadata: { name: 'other' } });
    assert.deepEqual([renamed.status, renamed.json.message], [400, 'the name of the object (other) does not match the name on the URL (web)']);
    const moved = await send(server, 'PUT', `${CM}/web`, { metadata: { name: 'web', namespace: 'other' } });
    assert.deepEqual([moved.status, moved.json.message], [400, 'the namespace of the provided object does not match the namespace sent on the request']);
    const missing = await send(server, 'PUT', `${CM}/nope`, { metadata: { name: 'nope', resourceVersion: '5' } });
    assert.deepEqual([missing.status, missing.json.message], [404, 'configmaps "nope" not found']);
  });

  it('an update that changes nothing stores nothing: same resourceVersion, no watch event', async () => {
    const cm = server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { x: '1' } });
    const rv = server.resourceVersion;
    const same = await send(server, 'PUT', `${CM}/web`, cm);
    assert.equal(same.status, 200);
    assert.equal(same.json.metadata.resourceVersion, cm.metadata.resourceVersion);
    assert.equal(server.resourceVersion, rv);
  });

  it('updates own the fields they change: a controller and the user each own theirs (managedFields)', async () => {
    const cm = server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { x: '1', y: '1' } });
    const byController = server.update('configmaps', { ...cm, data: { x: '2', y: '1' } }, { manager: 'kube-controller-manager' });
    const mine = await send(server, 'PUT', `${CM}/web?fieldManager=kube-watch`, { ...byController, data: { x: '2', y: '2', z: '1' } });
    assert.equal(mine.status, 200);
    // The creator's entry goes with its last field (the real server keeps its `f:data: {.: {}}`).
    assert.deepEqual(managers(mine.json), {
      'kube-controller-manager/Update': { 'f:data': { '.': {}, 'f:x': {} } },
      'kube-watch/Update': { 'f:data': { '.': {}, 'f:y': {}, 'f:z': {} } },
    });
  });

  it('patches: JSON merge (null deletes), strategic merge (lists merged by name), JSON patch (test fails with 422); a stale resourceVersion in a patch is a 409; 415 for another type', async () => {
    server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { x: '1', y: '2' } });
    const merged = await send(server, 'PATCH', `${CM}/web`, { data: { z: '3', x: null } }, 'application/merge-patch+json');
    assert.deepEqual(merged.json.data, { y: '2', z: '3' });
    const jsonPatched = await send(server, 'PATCH', `${CM}/web`, [{ op: 'replace', path: '/data/y', value: '5' }, { op: 'remove', path: '/data/z' }], 'application/json-patch+json');
    assert.deepEqual(jsonPatched.json.data, { y: '5' });
    const failed = await send(server, 'PATCH', `${CM}/web`, [{ op: 'test', path: '/data/y', value: '9' }], 'application/json-patch+json');
    assert.deepEqual([failed.status, failed.json.reason, failed.json.message], [422, 'Invalid', 'the server rejected our request due to an error in our request']);
    const stale = await send(server, 'PATCH', `${CM}/web`, { metadata: { resourceVersion: '1' }, data: { q: '1' } }, 'application/merge-patch+json');
    assert.equal(stale.status, 409);
    const wrongType = await send(server, 'PATCH', `${CM}/web`, { data: {} }, 'text/plain');
    assert.deepEqual([wrongType.status, wrongType.json.reason], [415, 'UnsupportedMediaType']);
    const notJson = await send(server, 'PATCH', `${CM}/web`, '{"data":', 'application/merge-patch+json');
    assert.deepEqual([notJson.status, notJson.json.message], [400, 'error decoding patch: unexpected end of JSON input']);

    server.create('deployments.apps', {
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }, { name: 'side', image: 'envoy:1' }] } } },
    });
    const strategic = await send(server, 'PATCH', `${DEPLOY}/web`, { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } } }, 'application/strategic-merge-patch+json');
    assert.deepEqual(strategic.json.spec.template.spec.containers, [{ name: 'web', image: 'nginx:2' }, { name: 'side', image: 'envoy:1' }]);
  });

  it('422 Invalid with one cause per field: labels, ConfigMap keys, an immutable ConfigMap, a Deployment (selector immutable, replicas, image)', async () => {
    server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { x: '1' } });
    const bad = await send(server, 'PUT', `${CM}/web`, { metadata: { name: 'web', labels: { 'bad key!': 'x' } }, data: { 'bad key': '1' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json.details.causes.map((c: { field: string }) => c.field), ['metadata.labels', 'data[bad key]']);
    assert.match(bad.json.message, /^ConfigMap "web" is invalid: \[metadata\.labels: Invalid value: "bad key!": name part must consist/);

    server.create('configmaps', { metadata: { name: 'frozen', namespace: 'default' }, immutable: true, data: { a: '1' } });
    const frozen = await send(server, 'PUT', `${CM}/frozen`, { metadata: { name: 'frozen' }, immutable: true, data: { a: '2' } });
    assert.deepEqual([frozen.status, frozen.json.message], [422, 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set']);

    server.create('deployments.apps', { metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    const deploy = await send(server, 'PATCH', `${DEPLOY}/web`, { spec: { replicas: -1, selector: { matchLabels: { app: 'web2' } }, template: { spec: { containers: [{ name: 'c', image: '' }] } } } }, 'application/strategic-merge-patch+json');
    assert.equal(deploy.status, 422);
    assert.deepEqual(deploy.json.details, {
      name: 'web',
      group: 'apps',
      kind: 'Deployment',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable', field: 'spec.selector' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.template.spec.containers[0].image' },
      ],
    });
    const wrongValue = await send(server, 'PUT', `${CM}/web`, { metadata: { name: 'web' }, data: { a: 1 } });
    assert.deepEqual([wrongValue.status, wrongValue.json.message], [400, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string']);
  });

  it('dryRun=All: the answer is what would be stored; nothing is stored and no watcher hears of it; another value is a 422', async () => {
    const cm = server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { x: '1' } });
    const rv = server.resourceVersion;
    const dry = await send(server, 'PUT', `${CM}/web?dryRun=All`, { metadata: { name: 'web' }, data: { dry: '1' } });
    assert.equal(dry.status, 200);
    assert.deepEqual(dry.json.data, { dry: '1' });
    assert.equal(dry.json.metadata.resourceVersion, cm.metadata.resourceVersion);
    const dryCreate = await send(server, 'POST', `${CM}?dryRun=All`, { metadata: { name: 'dry' } });
    assert.equal(dryCreate.status, 201);
    assert.equal(dryCreate.json.metadata.resourceVersion, undefined);
    assert.equal(server.get('configmaps', 'default', 'dry'), undefined);
    assert.equal(server.resourceVersion, rv);
    assert.deepEqual(server.get('configmaps', 'default', 'web')?.data, { x: '1' });
    const yes = await send(server, 'PUT', `${CM}/web?dryRun=Yes`, { metadata: { name: 'web' } });
    assert.deepEqual([yes.status, yes.json.message], [422, 'UpdateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Yes"]: supported values: "All"']);
  });

  it('server-side apply of a field the kind does not declare: 500, as 1.34.9 answers it (dry run or not, Strict or not), nothing stored', async () => {
    const body = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: typo\nspec:\n  replicaz: 3\n';
    for (const query of ['fieldManager=kw&dryRun=All&fieldValidation=Strict', 'fieldManager=kw']) {
      const r = await send(server, 'PATCH', `${DEPLOY}/typo?${query}`, body, 'application/apply-patch+yaml');
      assert.deepEqual([r.status, r.json], [500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'failed to create typed patch object (default/typo; apps/v1, Kind=Deployment): .spec.replicaz: field not declared in schema', code: 500 }]);
    }
    const cm = await send(server, 'PATCH', `${CM}/typo?fieldManager=kw`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\ndatax:\n  a: "1"\n', 'application/apply-patch+yaml');
    assert.equal(cm.json.message, 'failed to create typed patch object (default/typo; /v1, Kind=ConfigMap): .datax: field not declared in schema');
    assert.equal(server.get('deployments.apps', 'default', 'typo'), undefined);
  });

  it('server-side apply: fieldManager required; conflicts with other managers named per field; same values share; force takes the fields', async () => {
    const yaml = (data: Record<string, string>) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`).join('\n')}\n`;
    const apply = (data: Record<string, string>, query = 'fieldManager=kube-watch') => send(server, 'PATCH', `${CM}/app?${query}`, yaml(data), 'application/apply-patch+yaml');
    const noManager = await apply({ a: '1' }, '');
    assert.deepEqual([noManager.status, noManager.json.message], [422, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch']);
    const created = await apply({ a: '1', b: '2' });
    assert.equal(created.status, 201);
    assert.deepEqual(managers(created.json), { 'kube-watch/Apply': { 'f:data': { 'f:a': {}, 'f:b': {} } } });
    await send(server, 'PATCH', `${CM}/app?fieldManager=hpa`, { data: { a: '10', c: '1' } }, 'application/merge-patch+json');
    await send(server, 'PATCH', `${CM}/app?fieldManager=kcm`, { data: { b: '10', d: '1' } }, 'application/merge-patch+json');

    const one = await apply({ a: '10', b: '3' });
    assert.equal(one.status, 409);
    assert.deepEqual(one.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kcm" using v1: .data.b',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kcm" using v1', field: '.data.b' }] },
      code: 409,
    });
    const four = await apply({ a: '1', b: '3', c: '2', d: '2' });
    assert.equal(four.json.message, 'Apply failed with 4 conflicts: conflicts with "hpa" using v1:\n- .data.a\n- .data.c\nconflicts with "kcm" using v1:\n- .data.b\n- .data.d');
    const dryForce = await apply({ a: '1', b: '3' }, 'fieldManager=kube-watch&force=true&dryRun=All');
    assert.deepEqual(dryForce.json.data, { a: '1', b: '3', c: '1', d: '1' });
    assert.deepEqual(server.get('configmaps', 'default', 'app')?.data, { a: '10', b: '10', c: '1', d: '1' }, 'the dry run stored nothing');
    const forced = await apply({ a: '1', b: '3' }, 'fieldManager=kube-watch&force=true');
    assert.equal(forced.status, 200);
    assert.deepEqual(managers(forced.json), {
      'kube-watch/Apply': { 'f:data': { 'f:a': {}, 'f:b': {} } },
      'hpa/Update': { 'f:data': { '.': {}, 'f:c': {} } },
      'kcm/Update': { 'f:data': { '.': {}, 'f:d': {} } },
    });
    const dropped = await apply({ a: '1' });
    assert.deepEqual(dropped.json.data, { a: '1', c: '1', d: '1' }, 'a field the applier no longer sets and nobody else owns is removed');
  });

  it('the manager of an update is fieldManager, else the User-Agent, else "unknown"', async () => {
    server.create('configmaps', { metadata: { name: 'web', namespace: 'default' }, data: { x: '1' } });
    await send(server, 'PATCH', `${CM}/web`, { data: { a: '1' } }, 'application/merge-patch+json', 'kubectl/v1.34.1 (linux/amd64)');
    const last = await send(server, 'PATCH', `${CM}/web`, { data: { b: '1' } }, 'application/merge-patch+json');
    assert.deepEqual(Object.keys(managers(last.json)), ['kubectl-create/Update', 'kubectl/Update', 'unknown/Update']);
  });
});
