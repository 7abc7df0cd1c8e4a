import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { EditSession, mergePatch } from '../../src/edit';
import type { KubeObject, ResourceType } from '../../src/informer';
import { FakeApiServer } from '../support/apiserver';
import { pinnedTo } from '../support/pinned-origin';

const CONFIGMAPS: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

describe('edit: a save pinned to where the object was read (local API server)', () => {
  let server: FakeApiServer;
  let transport: KubeConfigTransport;
  beforeEach(async () => {
    server = await FakeApiServer.start();
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig());
    transport = new KubeConfigTransport(kc);
    server.create('configmaps', { metadata: { name: 'web', namespace: 'shop' }, data: { LOG_LEVEL: 'info', OLD: 'x' } });
  });
  afterEach(async () => {
    transport.dispose();
    await server.close();
  });
  const signal = () => new AbortController().signal;
  const open = () => {
    const pin = pinnedTo(transport);
    const obj = server.get('configmaps', 'shop', 'web') as unknown as KubeObject;
    return { pin, session: new EditSession({ type: CONFIGMAPS, namespace: 'shop', name: 'web', ...pin }, obj, { hideServerFields: true }) };
  };
  const saves = () => server.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.status}`);

  it('the merge patch: what changed, removed keys as null, lists whole', () => {
    assert.deepEqual(mergePatch({ a: 1, b: { c: 2, d: 3 }, l: [1, 2] }, { a: 1, b: { c: 5 }, l: [1, 2, 3], n: 'new' }), { b: { c: 5, d: null }, l: [1, 2, 3], n: 'new' });
    assert.equal(mergePatch({ a: [1] }, { a: [1] }), undefined);
  });

  it('a removed key is sent as null: the server drops it', async () => {
    const { session, pin } = open();
    const out = await session.save(session.render().replace("  OLD: x\n", ''), signal());
    assert.equal(out.kind, 'saved', JSON.stringify(out));
    assert.deepEqual(JSON.parse(pin.sent[0].body ?? '').data, { OLD: null });
    assert.deepEqual(server.get('configmaps', 'shop', 'web')?.data, { LOG_LEVEL: 'info' });
  });

  it('W01: the origin no longer resolves: nothing is sent, the refusal says why and keeps the edit', async () => {
    const { session, pin } = open();
    pin.refuse('This object is from context "staging" (server https://a); the current context is now "prod" (server https://b): nothing was sent.');
    const out = await session.save(session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
    assert.equal(out.kind === 'refused' && out.refusal.message, 'This object is from context "staging" (server https://a); the current context is now "prod" (server https://b): nothing was sent. Your edit is kept; Save As… keeps it in a file.');
    assert.deepEqual(saves(), []);
  });

  it('W03: after the watch showed it deleted, nothing is sent; "no longer watched" is not a delete: that save goes to the origin', async () => {
    const { session } = open();
    session.noteLive(undefined, Date.parse('2026-01-02T03:04:05Z'));
    const out = await session.save(session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
    assert.equal(out.kind === 'refused' && out.refusal.message, 'ConfigMap shop/web was deleted on the server at 2026-01-02 03:04:05 UTC: nothing was saved. Your edit is kept; Save As New Object… re-creates it from your edit, Save As… keeps it in a file.');
    assert.deepEqual(saves(), []);
    const other = open().session;
    other.noteLive(undefined, 0, 'unwatched');
    assert.equal((await other.save(other.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal())).kind, 'saved');
  });

  it('W04: deleted and created again, unseen by the watch: the 409 re-read finds the new uid and nothing more is sent', async () => {
    const { session } = open();
    server.delete('configmaps', 'shop', 'web');
    server.create('configmaps', { metadata: { name: 'web', namespace: 'shop' }, data: { LOG_LEVEL: 'info', OLD: 'x', NEW: 'y' } });
    const out = await session.save(session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
    assert.equal(out.kind, 'refused', JSON.stringify(out));
    assert.match(out.kind === 'refused' ? out.refusal.message : '', /^ConfigMap shop\/web on the server is a new object \(deleted and created again/);
    assert.deepEqual(saves(), ['PATCH 409']);
    assert.equal((server.get('configmaps', 'shop', 'web')?.data as Record<string, string>).LOG_LEVEL, 'info');
  });
});
