import assert from 'node:assert/strict';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { EditSession, applyEdit, conflictLines, previewApply, type EditWrite } from '../../src/edit';
import type { KubeObject, ResourceType } from '../../src/informer';
import { pinnedTo } from '../support/pinned-origin';
import { CONFIGMAPS, DEPLOYMENTS, PROTOCOLS, useControlPlane, useTransports } from './support';


/**
 * Editing live objects against a real kube-apiserver 1.34.9 (RBAC on): the save's optimistic
 * concurrency, rebase and conflicts, a 422 mapped to the buffer's lines, a refusal in words for a
 * user who may read but not write, and server-side apply with its dry run and field-manager
 * conflicts, through our transport over HTTP/2 and HTTP/1.1. What the local API server's
 * simplified field-manager model stands in for (test/support/apiserver/field-manager.ts) is
 * checked here against the real thing.
 */
describe('[real] edit live (kube-apiserver 1.34, RBAC)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportOf = useTransports();
  const signal = () => new AbortController().signal;
  const cmPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;

  /** A session on an object as our transport reads it (what the editor opens from). */
  const open = async (transport: KubeConfigTransport, type: ResourceType, ns: string, name: string, writes: EditWrite[] = []) => {
    const path = type.group ? `/apis/${type.group}/${type.version}/namespaces/${ns}/${type.resource}/${name}` : `/api/v1/namespaces/${ns}/${type.resource}/${name}`;
    const obj = await transport.getJson<KubeObject>(path, {}, signal());
    return new EditSession({ type, namespace: ns, name, ...pinnedTo(transport) }, obj, { hideServerFields: true, onWrite: (w) => writes.push(w) });
  };

  for (const { label, http2 } of PROTOCOLS) {
    it(`A05 [real] ${label}: server-side apply of an edit: the dry run names what would change and stores nothing; a field another manager owns is a conflict naming both; a previewed force takes it, and only it`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info', REVISION: '1' } });
      await p.admin.patch(`${cmPath(ns, 'web')}?fieldManager=kube-controller-manager`, { data: { REVISION: '2' } }, 'merge');
      const transport = transportOf(p, 'admin', http2);
      const writes: EditWrite[] = [];
      const session = await open(transport, CONFIGMAPS, ns, 'web', writes);
      const text = session.render();
      assert.equal(text, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: ${ns}\ndata:\n  LOG_LEVEL: info\n  REVISION: '2'\n`);

      const rv = (await p.admin.get(cmPath(ns, 'web'))).metadata.resourceVersion;
      const preview = await previewApply(session, text.replace('LOG_LEVEL: info', 'LOG_LEVEL: info\n  TIMEOUT: 30s'), signal());
      assert.equal(preview.kind, 'preview', JSON.stringify(preview));
      assert.deepEqual(preview.kind === 'preview' && preview.changed, [['data', 'TIMEOUT']]);
      assert.equal((await p.admin.get(cmPath(ns, 'web'))).metadata.resourceVersion, rv, 'the dry run stored nothing');

      const conflicting = text.replace("REVISION: '2'", "REVISION: '3'");
      const conflicted = await previewApply(session, conflicting, signal());
      assert.equal(conflicted.kind, 'conflicts', JSON.stringify(conflicted));
      if (conflicted.kind !== 'conflicts') return;
      assert.deepEqual(conflicted.conflicts, [{ field: '.data.REVISION', manager: 'kube-controller-manager', path: ['data', 'REVISION'] }]);
      assert.deepEqual(conflictLines(conflicted.conflicts), [
        'data.REVISION is managed by kube-controller-manager: forcing the apply makes Kube Watch their manager and takes it from kube-controller-manager, which may set them back.',
      ]);
      assert.deepEqual(conflicted.problems.map((pr) => pr.range.line), [7], 'the conflict on the line of data.REVISION');
      const forcedPreview = await previewApply(session, conflicting, signal(), { force: conflicted.conflicts });
      assert.equal(forcedPreview.kind, 'preview', JSON.stringify(forcedPreview));
      if (forcedPreview.kind !== 'preview') return;
      assert.equal(forcedPreview.plan.force, true);
      const forced = await applyEdit(session, forcedPreview.plan, conflicting, signal());
      assert.equal(forced.kind, 'applied', JSON.stringify(forced));
      const after = await p.admin.get(cmPath(ns, 'web'));
      assert.deepEqual(after.data, { LOG_LEVEL: 'info', REVISION: '3' });
      const managed = after.metadata.managedFields as { manager: string; operation: string; fieldsV1: { 'f:data'?: Record<string, unknown> } }[];
      const owners = managed.filter((e) => e.fieldsV1['f:data']?.['f:REVISION'] !== undefined).map((e) => `${e.manager}/${e.operation}`);
      assert.deepEqual(owners, ['kube-watch/Apply'], 'force took the field from kube-controller-manager');
      assert.deepEqual(managed.filter((e) => e.manager === 'kube-watch').map((e) => e.fieldsV1), [{ 'f:data': { 'f:REVISION': {} } }], 'kube-watch owns what the edit changed, not the whole object (W06)');
      assert.deepEqual(writes.map((w) => `${w.verb}${w.dryRun ? ' (dry run)' : ''}: ${w.result}`), ['apply (dry run): ok', 'apply (dry run): 409 Conflict', 'apply (dry run): 409 Conflict', 'apply (dry run): ok', 'apply: ok']);
    });

    it(`[real] ${label}: saving an edit: a merge patch with the resourceVersion it started from; another manager's change rebased onto and named; an overlap written nowhere; a 409 read again`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info', REVISION: '1' } });
      const transport = transportOf(p, 'admin', http2);
      const session = await open(transport, CONFIGMAPS, ns, 'web');

      // No change on the server: an update with the resourceVersion the edit started from.
      let text = session.render();
      const saved = await session.save(text.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
      assert.equal(saved.kind, 'saved', JSON.stringify(saved));
      assert.equal(((await p.admin.get(cmPath(ns, 'web'))).data as Record<string, string>).LOG_LEVEL, 'debug');

      // Another manager changes another field; the watch delivers it: the save rebases.
      text = session.render();
      await p.admin.patch(`${cmPath(ns, 'web')}?fieldManager=config-reloader`, { data: { REVISION: '2' } }, 'merge');
      session.noteLive(await p.admin.get(cmPath(ns, 'web')) as unknown as KubeObject);
      const rebased = await session.save(text.replace('LOG_LEVEL: debug', 'LOG_LEVEL: warn'), signal());
      assert.equal(rebased.kind, 'saved', JSON.stringify(rebased));
      assert.deepEqual(rebased.kind === 'saved' && rebased.rebased, { fields: [['data', 'REVISION']], manager: 'config-reloader' });
      assert.deepEqual((await p.admin.get(cmPath(ns, 'web'))).data, { LOG_LEVEL: 'warn', REVISION: '2' });

      // The same field changed on both sides: a conflict, and nothing is written.
      text = session.render();
      await p.admin.patch(`${cmPath(ns, 'web')}?fieldManager=config-reloader`, { data: { LOG_LEVEL: 'error' } }, 'merge');
      session.noteLive(await p.admin.get(cmPath(ns, 'web')) as unknown as KubeObject);
      const before = (await p.admin.get(cmPath(ns, 'web'))).metadata.resourceVersion;
      const overlap = await session.save(text.replace('LOG_LEVEL: warn', 'LOG_LEVEL: trace'), signal());
      assert.equal(overlap.kind, 'conflict');
      assert.deepEqual(overlap.kind === 'conflict' && overlap.conflicts.map((c) => [c.path, c.theirs, c.ours]), [[['data', 'LOG_LEVEL'], 'error', 'trace']]);
      assert.equal((await p.admin.get(cmPath(ns, 'web'))).metadata.resourceVersion, before, 'nothing written');

      // The server moves on unseen (no watch told the session): the 409 reads it again and rebases.
      const fresh = await open(transport, CONFIGMAPS, ns, 'web');
      text = fresh.render();
      await p.admin.patch(`${cmPath(ns, 'web')}?fieldManager=config-reloader`, { data: { REVISION: '3' } }, 'merge');
      const after409 = await fresh.save(text.replace('LOG_LEVEL: error', 'LOG_LEVEL: info'), signal());
      assert.equal(after409.kind, 'saved', JSON.stringify(after409));
      assert.deepEqual((await p.admin.get(cmPath(ns, 'web'))).data, { LOG_LEVEL: 'info', REVISION: '3' });
    });

    it(`[real] ${label}: a 422 lands on the buffer's lines (a Deployment's replicas and image, an immutable selector said as such); a Secret's values edited as text go back as base64, and so does one revealed value saved on its own (Edit value…)`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
        metadata: { name: 'web' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } } },
      });
      const transport = transportOf(p, 'admin', http2);
      const session = await open(transport, DEPLOYMENTS, ns, 'web');
      const text = session.render();
      const bad = text.replace('replicas: 1', 'replicas: -1').replace('image: nginx:1', "image: ''");
      const out = await session.save(bad, signal());
      assert.equal(out.kind, 'refused', JSON.stringify(out));
      if (out.kind !== 'refused') return;
      const lines = bad.split('\n');
      const found = out.refusal.problems.map((pr) => [pr.message.split(':')[0], lines[pr.range.line].trim()]);
      assert.deepEqual(found, [
        ['spec.replicas', 'replicas: -1'],
        ['spec.template.spec.containers[0].image', "image: ''"],
      ]);
      const immutable = await session.save(text.replace(/app: web/g, 'app: shop'), signal());
      assert.equal(immutable.kind, 'refused');
      assert.match(immutable.kind === 'refused' ? immutable.refusal.message : '', /^spec\.selector cannot be changed once set: nothing was saved\./);

      await p.admin.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'db' }, type: 'Opaque', data: { password: Buffer.from('hunter2').toString('base64') } });
      const secret = await open(transport, { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true }, ns, 'db');
      secret.setRevealed(true);
      const saved = await secret.save(secret.render().replace('password: hunter2', 'password: correct horse'), signal());
      assert.equal(saved.kind, 'saved', JSON.stringify(saved));
      assert.equal(((await p.admin.get(`/api/v1/namespaces/${ns}/secrets/db`)).data as Record<string, string>).password, Buffer.from('correct horse').toString('base64'));
      // W12: a revealed value is changed on its own (Edit value…), never in the buffer; a new key the same way.
      assert.equal((await secret.saveValue('password', Buffer.from('battery staple').toString('base64'), signal())).kind, 'saved');
      assert.equal((await secret.saveValue('token', Buffer.from('t0k3n').toString('base64'), signal())).kind, 'saved');
      assert.deepEqual((await p.admin.get(`/api/v1/namespaces/${ns}/secrets/db`)).data, { password: Buffer.from('battery staple').toString('base64'), token: Buffer.from('t0k3n').toString('base64') });
    });

    it(`[real] ${label}: a user who may read but not write: the save is refused in words (403), nothing written, the edit kept`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info' } });
      const transport = transportOf(p, 'reader', http2);
      const session = await open(transport, CONFIGMAPS, ns, 'web');
      const out = await session.save(session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
      assert.equal(out.kind, 'refused');
      assert.equal(
        out.kind === 'refused' && out.refusal.message,
        `The server refused to change ConfigMap ${ns}/web: configmaps "web" is forbidden: User "reader" cannot patch resource "configmaps" in API group "" in the namespace "${ns}". Nothing was saved; your edit is kept.`,
      );
      assert.equal(((await p.admin.get(cmPath(ns, 'web'))).data as Record<string, string>).LOG_LEVEL, 'info');
    });
  }
});
