import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { EditSession, applyEdit, conflictLines, previewApply, type EditWrite } from '../../src/edit';
import type { KubeObject, ResourceType } from '../../src/informer';
import { FakeApiServer } from '../support/apiserver';
import { pinnedTo } from '../support/pinned-origin';

const CONFIGMAPS: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const SECRETS: ResourceType = { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true };

describe('edit: saving an edit through the transport (local API server)', () => {
  let server: FakeApiServer;
  let transport: KubeConfigTransport;
  let writes: EditWrite[];
  beforeEach(async () => {
    server = await FakeApiServer.start({ http2: process.env.FAKE_APISERVER_HTTP2 === '1' });
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig());
    transport = new KubeConfigTransport(kc);
    writes = [];
  });
  afterEach(async () => {
    transport.dispose();
    await server.close();
  });

  const signal = () => new AbortController().signal;
  let pin: ReturnType<typeof pinnedTo>;
  const open = (type: ResourceType, name: string, hideServerFields = true) => {
    const obj = server.get(type.resource, 'shop', name) as unknown as KubeObject;
    pin = pinnedTo(transport);
    return new EditSession({ type, namespace: 'shop', name, ...pin }, obj, { hideServerFields, onWrite: (w) => writes.push(w) });
  };
  const liveOf = (name: string, resource = 'configmaps') => server.get(resource, 'shop', name) as unknown as KubeObject;
  /** The statuses of the saves (a save is a PATCH, never a PUT: it cannot create). */
  const puts = () => server.requests.filter((r) => r.method === 'PUT' || r.method === 'PATCH').map((r) => r.status);

  beforeEach(() => {
    server.create('configmaps', { metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } }, data: { LOG_LEVEL: 'info', REVISION: '1' } });
  });

  it('shows the object without status, managedFields and server metadata; saving sends a merge patch of what changed with the resourceVersion it started from and the uid', async () => {
    const session = open(CONFIGMAPS, 'web');
    const text = session.render();
    assert.equal(text, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    app: web\ndata:\n  LOG_LEVEL: info\n  REVISION: \'1\'\n');
    const startedAt = session.base.metadata.resourceVersion;
    const out = await session.save(text.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
    assert.equal(out.kind, 'saved');
    assert.deepEqual(liveOf('web').data, { LOG_LEVEL: 'debug', REVISION: '1' });
    const put = server.requests.find((r) => r.method === 'PATCH');
    assert.equal(put?.query.fieldManager, 'kube-watch');
    assert.equal(server.requests.some((r) => r.method === 'PUT'), false, 'never a PUT (a PUT may create)');
    assert.deepEqual(pin.sent.map((r) => [r.method, r.contentType, JSON.parse(r.body ?? '')]), [
      ['PATCH', 'application/merge-patch+json', { data: { LOG_LEVEL: 'debug' }, metadata: { resourceVersion: startedAt, uid: liveOf('web').metadata.uid } }],
    ]);
    assert.notEqual(session.base.metadata.resourceVersion, startedAt, 'the saved version is the new base');
    assert.deepEqual(writes.map((w) => [w.verb, w.result, w.resourceVersion]), [['update', 'ok', liveOf('web').metadata.resourceVersion]]);
  });

  it('a buffer that changes nothing sends nothing', async () => {
    const session = open(CONFIGMAPS, 'web');
    const out = await session.save(session.render(), signal());
    assert.deepEqual(out.kind === 'saved' && out.unchanged, true);
    assert.deepEqual(puts(), []);
  });

  it('the object moved on in another field: the save rebases (both changes on the server) and names who changed it', async () => {
    const session = open(CONFIGMAPS, 'web');
    const text = session.render();
    const cm = liveOf('web');
    server.update('configmaps', { ...cm, data: { ...cm.data as object, REVISION: '2' } }, { manager: 'config-reloader' });
    session.noteLive(liveOf('web'), 1000);
    const change = session.serverChange();
    assert.deepEqual(change?.fields, [['data', 'REVISION']]);
    const out = await session.save(text.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
    assert.equal(out.kind, 'saved');
    assert.deepEqual(out.kind === 'saved' && out.rebased, { fields: [['data', 'REVISION']], manager: 'config-reloader' });
    assert.deepEqual(liveOf('web').data, { LOG_LEVEL: 'debug', REVISION: '2' });
    assert.deepEqual(puts(), [200]);
  });

  it('an overlapping change is a conflict and nothing is written', async () => {
    const session = open(CONFIGMAPS, 'web');
    const text = session.render();
    const cm = liveOf('web');
    server.update('configmaps', { ...cm, data: { ...cm.data as object, LOG_LEVEL: 'warn' } });
    session.noteLive(liveOf('web'));
    const out = await session.save(text.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
    assert.equal(out.kind, 'conflict');
    assert.deepEqual(out.kind === 'conflict' && out.conflicts, [{ path: ['data', 'LOG_LEVEL'], base: 'info', theirs: 'warn', ours: 'debug' }]);
    assert.deepEqual(puts(), []);
    assert.equal((liveOf('web').data as Record<string, string>).LOG_LEVEL, 'warn');
  });

  it('a 409 at save (the watch had not seen the change yet) reads the object again and takes the merge path once', async () => {
    const session = open(CONFIGMAPS, 'web');
    const text = session.render();
    const cm = liveOf('web');
    server.update('configmaps', { ...cm, data: { ...cm.data as object, REVISION: '2' } });
    const out = await session.save(text.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
    assert.equal(out.kind, 'saved');
    assert.deepEqual(liveOf('web').data, { LOG_LEVEL: 'debug', REVISION: '2' });
    assert.deepEqual(server.requests.filter((r) => r.method !== 'GET' || r.verb === 'get').map((r) => `${r.method} ${r.status}`), ['PATCH 409', 'GET 200', 'PATCH 200']);
  });

  it('bad input never reaches the server: a YAML error, a renamed object, another kind', async () => {
    const session = open(CONFIGMAPS, 'web');
    const text = session.render();
    const syntax = await session.save(`${text}  broken: [\n`, signal());
    assert.equal(syntax.kind, 'problems');
    const renamed = await session.save(text.replace('name: web', 'name: web2'), signal());
    assert.deepEqual(renamed.kind === 'problems' && renamed.problems.map((p) => [p.range.line, p.message.split(',')[0]]), [[3, 'metadata.name is "web2"']]);
    const kind = await session.save(text.replace('kind: ConfigMap', 'kind: Secret'), signal());
    assert.deepEqual(kind.kind === 'problems' && kind.problems.map((p) => p.range.line), [1]);
    assert.deepEqual(puts(), []);
  });

  it('a 422 maps its causes to the lines of the buffer; an immutable field says which', async () => {
    const session = open(CONFIGMAPS, 'web');
    const text = session.render().replace('    app: web\n', '    app: web\n    bad key!: x\n');
    const out = await session.save(text, signal());
    assert.equal(out.kind, 'refused');
    if (out.kind !== 'refused') return;
    assert.deepEqual(out.refusal.problems.map((p) => [p.range.line, p.message.startsWith('metadata.labels: Invalid value: "bad key!"')]), [[7, true]], 'on the line of the invalid key');
    assert.match(out.refusal.message, /invalid \(metadata\.labels\[bad key!\]\): nothing was saved/);

    server.create('configmaps', { metadata: { name: 'frozen', namespace: 'shop' }, immutable: true, data: { a: '1' } });
    const frozen = open(CONFIGMAPS, 'frozen');
    const refused = await frozen.save(frozen.render().replace("a: '1'", "a: '2'"), signal());
    assert.equal(refused.kind === 'refused' && refused.refusal.message, 'data cannot be changed once set: nothing was saved. See the Problems panel; your edit is kept.');
  });

  it('the cluster unreachable: nothing saved, the reason in words; saved once it is back', async () => {
    const session = open(CONFIGMAPS, 'web');
    const text = session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug');
    await server.goDown();
    const out = await session.save(text, signal());
    assert.equal(out.kind, 'refused');
    assert.match(out.kind === 'refused' ? out.refusal.message : '', /^The cluster is unreachable \(.*ECONNREFUSED.*\): nothing was saved\. Your edit is kept; save again to retry\.$/);
    assert.equal(out.kind === 'refused' && out.refusal.unreachable, true);
    await server.comeUp();
    assert.equal((await session.save(text, signal())).kind, 'saved');
    assert.equal((liveOf('web').data as Record<string, string>).LOG_LEVEL, 'debug');
  });

  it('a Secret: masked values cannot be edited; revealed, they are text and are encoded back; binary values stay base64', async () => {
    const binary = Buffer.from([0xff, 0x00, 0x81]).toString('base64');
    server.create('secrets', { metadata: { name: 'db', namespace: 'shop' }, type: 'Opaque', data: { password: Buffer.from('hunter2').toString('base64'), cert: binary } });
    const session = open(SECRETS, 'db');
    const masked = session.render();
    assert.match(masked, /password: ••••••/);
    const tried = await session.save(masked.replace('password: ••••••', 'password: letmein'), signal());
    assert.deepEqual(tried.kind === 'problems' && tried.problems.map((p) => p.message.split('. ')[0]), ['data.password: Secret values are masked here']);
    const unchangedMasked = await session.save(masked.replace("type: Opaque", "type: Opaque\nimmutable: false"), signal());
    assert.equal(unchangedMasked.kind, 'saved');
    assert.equal((liveOf('db', 'secrets').data as Record<string, string>).password, Buffer.from('hunter2').toString('base64'), 'masked values kept as they were');

    session.setRevealed(true);
    const revealed = session.render();
    assert.match(revealed, /password: hunter2/);
    assert.match(revealed, new RegExp(`cert: ${binary.replace(/[+/]/g, '\\$&')}`));
    assert.deepEqual(session.binaryKeys, ['cert']);
    const out = await session.save(revealed.replace('password: hunter2', 'password: correct horse'), signal());
    assert.equal(out.kind, 'saved');
    assert.deepEqual(liveOf('db', 'secrets').data, { password: Buffer.from('correct horse').toString('base64'), cert: binary });
  });

  it('W12 one revealed Secret value saved on its own: a merge patch of that value only, pinned to the version it stood on; the server changing another value merges, the same value is a conflict and nothing is written', async () => {
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    server.create('secrets', { metadata: { name: 'db', namespace: 'shop', labels: { app: 'db' } }, type: 'Opaque', data: { password: b64('hunter2'), user: b64('app') } });
    const session = open(SECRETS, 'db');
    session.setRevealed(true);
    session.render();
    const startedAt = session.base.metadata.resourceVersion;
    const out = await session.saveValue('password', b64('correct horse'), signal());
    assert.equal(out.kind, 'saved');
    assert.deepEqual(liveOf('db', 'secrets').data, { password: b64('correct horse'), user: b64('app') });
    assert.deepEqual(liveOf('db', 'secrets').metadata.labels, { app: 'db' });
    assert.deepEqual(pin.sent.map((r) => JSON.parse(r.body ?? '')), [{ data: { password: b64('correct horse') }, metadata: { resourceVersion: startedAt, uid: liveOf('db', 'secrets').metadata.uid } }]);
    assert.equal(session.base.metadata.resourceVersion, liveOf('db', 'secrets').metadata.resourceVersion, 'the saved version is the new base');

    const other = liveOf('db', 'secrets');
    server.update('secrets', { ...other, data: { ...(other.data as object), user: b64('admin') } });
    session.noteLive(liveOf('db', 'secrets'));
    assert.equal((await session.saveValue('password', b64('third'), signal())).kind, 'saved');
    assert.deepEqual(liveOf('db', 'secrets').data, { password: b64('third'), user: b64('admin') });

    const same = liveOf('db', 'secrets');
    server.update('secrets', { ...same, data: { ...(same.data as object), password: b64('rotated') } });
    session.noteLive(liveOf('db', 'secrets'));
    const writes = pin.sent.length;
    const clash = await session.saveValue('password', b64('mine'), signal());
    assert.equal(clash.kind, 'conflict');
    assert.equal(pin.sent.length, writes, 'nothing written');
    assert.equal((liveOf('db', 'secrets').data as Record<string, string>).password, b64('rotated'));
  });

  it('server-side apply: a dry run shows what would change and stores nothing; a conflict names the manager and the field; force takes it', async () => {
    const cm = liveOf('web');
    server.update('configmaps', { ...cm, data: { ...cm.data as object, REVISION: '2' } }, { manager: 'config-reloader' });
    const session = open(CONFIGMAPS, 'web');
    const text = session.render();
    const rv = server.resourceVersion;
    const preview = await previewApply(session, text.replace('LOG_LEVEL: info', 'LOG_LEVEL: info\n  TIMEOUT: 30s'), signal());
    assert.deepEqual(preview.kind === 'preview' && preview.changed, [['data', 'TIMEOUT']]);
    assert.equal(server.resourceVersion, rv, 'the dry run stored nothing');
    const conflicted = await previewApply(session, text.replace("REVISION: '2'", "REVISION: '3'"), signal());
    assert.equal(conflicted.kind, 'conflicts');
    if (conflicted.kind !== 'conflicts') return;
    assert.deepEqual(conflicted.conflicts, [{ field: '.data.REVISION', manager: 'config-reloader', path: ['data', 'REVISION'] }]);
    assert.deepEqual(conflictLines(conflicted.conflicts), ['data.REVISION is managed by config-reloader: forcing the apply makes Kube Watch their manager and takes it from config-reloader.']);
    assert.deepEqual(conflicted.problems.map((p) => p.range.line), [9]);
    const conflicting = text.replace("REVISION: '2'", "REVISION: '3'");
    const forcedPreview = await previewApply(session, conflicting, signal(), { force: conflicted.conflicts });
    assert.equal(forcedPreview.kind, 'preview');
    if (forcedPreview.kind !== 'preview') return;
    const forced = await applyEdit(session, forcedPreview.plan, conflicting, signal());
    assert.equal(forced.kind, 'applied');
    assert.equal((liveOf('web').data as Record<string, string>).REVISION, '3');
    assert.deepEqual(writes.map((w) => `${w.verb}${w.dryRun ? ' (dry run)' : ''} ${w.result}`), ['apply (dry run) ok', 'apply (dry run) 409 Conflict', 'apply (dry run) 409 Conflict', 'apply (dry run) ok', 'apply ok']);
  });
});
