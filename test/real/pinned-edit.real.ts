import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { runActionFlow, TRY_AGAIN, WriteJournal, type ActionDialogPort } from '../../src/actions';
import { systemClock } from '../../src/base';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { EditSession, saveRequest } from '../../src/edit';
import type { KubeObject, KubeTransport, ResourceType, WriteRequest } from '../../src/informer';
import { actionChoices, deleteChoices, revisionChoices } from '../../src/ui/actions';
import { overriding, pinnedTo } from '../support/pinned-origin';
import { CONFIGMAPS, DEPLOYMENTS, PROTOCOLS, uniqueName, useControlPlane, type ControlPlane } from './support';

const CLUSTER_ROLES: ResourceType = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false };
const signal = () => new AbortController().signal;

/**
 * Edits that must land on the object they were read from, or nowhere, on a real kube-apiserver
 * 1.34 (RBAC on): a ClusterRole deleted while edited is never brought back by a save (a PUT
 * would: allowCreateOnUpdate), only by Save As New Object…; an object deleted and created again
 * under its name is found at every re-read; the uid in the save's patch makes the server refuse
 * another object; an unreachable cluster keeps the edit and the plan, and nothing is sent later.
 */
describe('[real] pinned edits (kube-apiserver 1.34, RBAC)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transports: KubeConfigTransport[] = [];
  afterEach(() => {
    for (const t of transports.splice(0)) t.dispose();
  });

  const transportOf = (kubeconfig: string, http2: boolean) => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const t = new KubeConfigTransport(kc, { http2 });
    transports.push(t);
    return t;
  };

  /** A session on an object as our transport reads it, pinned to that transport (every write request recorded). */
  const open = async (transport: KubeTransport, type: ResourceType, ns: string, name: string) => {
    const collection = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
    const path = `${collection}${ns ? `/namespaces/${ns}` : ''}/${type.resource}/${name}`;
    const obj = await transport.getJson<KubeObject>(path, {}, signal());
    const pin = pinnedTo(transport);
    return { session: new EditSession({ type, namespace: ns, name, ...pin }, obj, { hideServerFields: true }), pin, path };
  };

  /** A transport that runs `before` once, ahead of the first request `which` picks (a delete, a re-creation: a race staged). */
  const racing = (inner: KubeTransport, which: 'write' | 'read-after-write', before: () => Promise<void>): KubeTransport => {
    let wrote = false;
    let done = false;
    return overriding(inner, {
      write: async <T,>(request: WriteRequest, s: AbortSignal) => {
        if (which === 'write' && !done) {
          done = true;
          await before();
        }
        wrote = true;
        return inner.write!<T>(request, s);
      },
      getJson: async <T,>(path: string, query: Record<string, string>, s: AbortSignal) => {
        const answer = await inner.getJson<T>(path, query, s);
        if (which === 'read-after-write' && wrote && !done) {
          done = true;
          await before();
        }
        return answer;
      },
    });
  };

  const clusterRole = (name: string) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] });

  /** Deletes and creates again a ConfigMap under its name (a new uid); returns the new one. */
  const recreate = async (p: ControlPlane, ns: string, name: string, data: Record<string, string>): Promise<KubeObject> => {
    await p.admin.delete(`/api/v1/namespaces/${ns}/configmaps/${name}`);
    return (await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data })) as unknown as KubeObject;
  };

  for (const { label, http2 } of PROTOCOLS) {
    it(`W03 [real] ${label}: a save after the watch showed the ClusterRole deleted is never sent and it stays deleted; deleted after the check, the PATCH gets 404 and creates nothing; Save As New Object… creates it when asked`, async () => {
      const p = plane();
      const name = uniqueName('w03-reader');
      await p.admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', clusterRole(name));
      const transport = transportOf(p.kubeconfig('admin'), http2);
      const { session, pin, path } = await open(transport, CLUSTER_ROLES, '', name);
      const text = session.render().replace('- get', '- get\n      - list');

      await p.admin.delete(path);
      session.noteLive(undefined, Date.parse('2026-01-02T03:04:05Z'));
      const refused = await session.save(text, signal());
      assert.equal(refused.kind, 'refused');
      assert.equal(
        refused.kind === 'refused' && refused.refusal.message,
        `ClusterRole ${name} was deleted on the server at 2026-01-02 03:04:05 UTC: nothing was saved. Your edit is kept; Save As New Object… re-creates it from your edit, Save As… keeps it in a file.`,
      );
      assert.deepEqual(pin.sent, [], 'nothing sent');
      assert.equal((await p.admin.raw('GET', path)).status, 404, 'still deleted');
      // Why never a PUT: on 1.34.9 a PUT of the missing ClusterRole, even with its old resourceVersion (without its
      // uid: a buffer with server fields shown and edited away), creates it again (allowCreateOnUpdate).
      const put = await p.admin.raw('PUT', path, { ...clusterRole(name), metadata: { name, resourceVersion: session.base.metadata.resourceVersion } });
      assert.equal(put.status, 201, 'a PUT re-creates');
      await p.admin.delete(path);

      // The race: deleted after the session last saw it, before the send. The save is a PATCH: 404, nothing created.
      const second = await p.admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', clusterRole(name));
      const fresh = await open(racing(transport, 'write', () => p.admin.delete(path).then(() => undefined)), CLUSTER_ROLES, '', name);
      const raced = await fresh.session.save(fresh.session.render().replace('- get', '- get\n      - list'), signal());
      assert.equal(raced.kind, 'refused', JSON.stringify(raced));
      assert.match(raced.kind === 'refused' ? raced.refusal.message : '', new RegExp(`^ClusterRole ${name} was deleted on the server: nothing was saved\\.`));
      assert.deepEqual(fresh.pin.sent.map((r) => `${r.method} ${r.contentType}`), ['PATCH application/merge-patch+json']);
      assert.equal((await p.admin.raw('GET', path)).status, 404, 'the PATCH created nothing');

      // Save As New Object…: the explicit, confirmed way back.
      const created = await fresh.session.createAsNew(text, signal());
      assert.equal(created.kind, 'saved', JSON.stringify(created));
      const stored = await p.admin.get(path);
      assert.deepEqual(stored.rules, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]);
      assert.notEqual(stored.metadata.uid, second.metadata.uid, 'a new object');
      await p.admin.delete(path);
    });

    it(`W04 [real] ${label}: an object deleted and created again (a new uid) while edited is refused as a new object, when the watch shows it and when only the 409's re-read finds it; deleted and created again between that re-read and the retry, the server refuses the retry`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info' } });
      const transport = transportOf(p.kubeconfig('admin'), http2);
      const cm = `/api/v1/namespaces/${ns}/configmaps/web`;

      // The watch shows the new object.
      const seen = await open(transport, CONFIGMAPS, ns, 'web');
      const fresh = await recreate(p, ns, 'web', { LOG_LEVEL: 'info', OWNER: 'someone else' });
      seen.session.noteLive(fresh);
      const refused = await seen.session.save(seen.session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
      assert.equal(refused.kind, 'refused');
      assert.match(refused.kind === 'refused' ? refused.refusal.message : '', new RegExp(`^ConfigMap ${ns}/web on the server is a new object \\(deleted and created again, created at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\): nothing was saved\\. Your edit is kept`));
      assert.deepEqual(seen.pin.sent, []);

      // Unseen by the watch: re-created just before the first write; the 409's re-read finds the new uid.
      let before = (await p.admin.get(cm)) as unknown as KubeObject;
      const unseen = await open(racing(transport, 'write', () => recreate(p, ns, 'web', { LOG_LEVEL: 'warn' }).then(() => undefined)), CONFIGMAPS, ns, 'web');
      const reread = await unseen.session.save(unseen.session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
      assert.equal(reread.kind, 'refused', JSON.stringify(reread));
      assert.match(reread.kind === 'refused' ? reread.refusal.message : '', /is a new object \(deleted and created again/);
      assert.equal(unseen.pin.sent.length, 1, 'one PATCH (409), none after the re-read');
      let after = (await p.admin.get(cm)) as unknown as KubeObject;
      assert.notEqual(after.metadata.uid, before.metadata.uid);
      assert.deepEqual(after.data, { LOG_LEVEL: 'warn' }, 'the new object untouched');

      // Re-created between the re-read and the retry: the retry carries the old uid and resourceVersion: refused.
      before = after;
      const late = await open(
        racing(transport, 'read-after-write', () => recreate(p, ns, 'web', { LOG_LEVEL: 'error' }).then(() => undefined)),
        CONFIGMAPS,
        ns,
        'web',
      );
      await p.admin.patch(cm, { data: { OTHER: 'x' } }, 'merge');
      const retry = await late.session.save(late.session.render().replace('LOG_LEVEL: warn', 'LOG_LEVEL: debug'), signal());
      assert.equal(retry.kind, 'refused', JSON.stringify(retry));
      assert.equal(retry.kind === 'refused' && retry.refusal.code, 409);
      assert.deepEqual(late.pin.sent.map((r) => JSON.parse(r.body ?? '{}').metadata.uid), [before.metadata.uid, before.metadata.uid], 'both PATCHes for the uid it was read with');
      after = (await p.admin.get(cm)) as unknown as KubeObject;
      assert.deepEqual(after.data, { LOG_LEVEL: 'error' }, 'the newest object untouched');
    });

    it(`W02 [real] ${label}: an edit's save planned for uid X sent to an object with uid Y is refused by the server (the uid in the merge patch), even with Y's resourceVersion`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const old = (await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info' } })) as unknown as KubeObject;
      const now = await recreate(p, ns, 'web', { LOG_LEVEL: 'info' });
      const transport = transportOf(p.kubeconfig('admin'), http2);
      const cm = `/api/v1/namespaces/${ns}/configmaps/web`;
      // The patch a save planned on the old object sends, with the new object's resourceVersion: only the uid tells them apart.
      const request = saveRequest(cm, now, { ...now, data: { LOG_LEVEL: 'debug' } }, old.metadata.uid, 'kube-watch');
      const refused = await transport.write(request, signal()).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.ok(refused, 'refused');
      // Seen on 1.34.9: 422, `ConfigMap "web" is invalid: metadata.uid: Invalid value: "<X>": field is immutable`.
      assert.equal((refused as { code?: number }).code, 422, String(refused));
      assert.equal(String((refused as Error).message), `ConfigMap "web" is invalid: metadata.uid: Invalid value: "${old.metadata.uid}": field is immutable`);
      const after = await p.admin.get(cm);
      assert.equal(after.metadata.resourceVersion, now.metadata.resourceVersion, 'nothing written');

      // Through an edit (the session's own check bypassed: it believes the new object is its own), the refusal says so.
      const session = new EditSession({ type: CONFIGMAPS, namespace: ns, name: 'web', ...pinnedTo(transport) }, { ...now, metadata: { ...now.metadata, uid: old.metadata.uid } }, { hideServerFields: true });
      const out = await session.save(session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
      assert.equal(out.kind, 'refused');
      assert.match(out.kind === 'refused' ? out.refusal.message : '', new RegExp(`^ConfigMap ${ns}/web on the server is a new object \\(deleted and created again\\): nothing was saved\\.`));
      assert.equal((await p.admin.get(cm)).metadata.resourceVersion, now.metadata.resourceVersion, 'nothing written');
    });

    it(`W16 [real] ${label}: the cluster unreachable: the save and a scale keep the edit and the plan with the reason; nothing is sent when it is back`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info' } });
      await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
        metadata: { name: 'web' },
        spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } } },
      });
      const relay = await p.relay();
      const transport = transportOf(p.kubeconfig('admin', { via: relay }), http2);
      const { session } = await open(transport, CONFIGMAPS, ns, 'web');
      const deployment = await transport.getJson<KubeObject>(`/apis/apps/v1/namespaces/${ns}/deployments/web`, {}, signal());
      const before = { cm: await p.admin.get(`/api/v1/namespaces/${ns}/configmaps/web`), deploy: await p.admin.get(`/apis/apps/v1/namespaces/${ns}/deployments/web`) };
      await relay.goDown();

      const saved = await session.save(session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), signal());
      assert.equal(saved.kind, 'refused');
      assert.equal(saved.kind === 'refused' && saved.refusal.unreachable, true);
      assert.match(saved.kind === 'refused' ? saved.refusal.message : '', /^The cluster is unreachable \(.+\): nothing was saved\. Your edit is kept; save again to retry\.$/);

      const said: string[] = [];
      const dialogs: ActionDialogPort = {
        askText: async () => '7',
        pickChoice: async () => undefined,
        confirmPlan: async () => 'confirmed',
        info: (m) => void said.push(`info: ${m}`),
        warning: (m) => void said.push(`warning: ${m}`),
        error: async (m, ...buttons) => (said.push(`error: ${m} [${buttons.join(', ')}]`), undefined),
        status: (m) => void said.push(`status: ${m}`),
        copy: async () => undefined,
      };
      const journal = new WriteJournal({ entries: () => [], entry: () => undefined, addHandler: () => ({ dispose: () => undefined }) });
      const pin = pinnedTo(transport);
      await runActionFlow(
        'scale',
        { target: { context: 'test', type: DEPLOYMENTS, namespace: ns, name: 'web', object: deployment }, origin: pin.origin },
        { dialogs, choices: { revisions: revisionChoices, deleteOptions: deleteChoices, actions: actionChoices }, journal, clock: systemClock, connect: pin.connect, watched: () => undefined, drain: async () => undefined },
      );
      journal.dispose();
      assert.equal(said.length, 1, said.join('\n'));
      assert.match(said[0], new RegExp(`^error: Could not scale Deployment ${ns}/web\\. The cluster could not be reached \\(.+\\); nothing was written\\. The plan is kept and nothing is queued: Try Again… shows it again to send it when you want\\. \\[${TRY_AGAIN}\\]$`));

      // Back: a read goes through again; nothing was sent meanwhile or after.
      await relay.comeUp();
      await transport.getJson(`/api/v1/namespaces/${ns}/configmaps/web`, {}, signal());
      const after = { cm: await p.admin.get(`/api/v1/namespaces/${ns}/configmaps/web`), deploy: await p.admin.get(`/apis/apps/v1/namespaces/${ns}/deployments/web`) };
      assert.equal(after.cm.metadata.resourceVersion, before.cm.metadata.resourceVersion);
      assert.equal(after.deploy.metadata.resourceVersion, before.deploy.metadata.resourceVersion);
      assert.equal(pin.sent.length, 1, 'the one scale that failed, nothing after');
    });
  }
});
