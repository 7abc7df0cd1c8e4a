import assert from 'node:assert/strict';
import { EditSession, applyEdit, previewApply, type ApplyPreview } from '../../src/edit';
import type { KubeObject, ResourceType } from '../../src/informer';
import { CONFIGMAPS, DEPLOYMENTS, isStatus, PROTOCOLS, useControlPlane, useTransports, type ControlPlane } from './support';
import { pinnedTo } from '../support/pinned-origin';


type Managed = { manager: string; operation: string; fieldsV1: Record<string, unknown> };

/**
 * W06 and W07 against a real kube-apiserver 1.34.9: a server-side apply from an edit sends the
 * user's intent only (read back from managedFields with the admin client), carries the
 * resourceVersion its preview was made on, forces only the conflicts that were previewed and
 * confirmed, and does not re-add what the server removed from under a stale buffer unless asked.
 */
describe('[real] server-side apply of an edit: the intent only (kube-apiserver 1.34)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportOf = useTransports();
  const signal = () => new AbortController().signal;
  const cmPath = (ns: string, name = 'web') => `/api/v1/namespaces/${ns}/configmaps/${name}`;
  const deployPath = (ns: string, name = 'web') => `/apis/apps/v1/namespaces/${ns}/deployments/${name}`;
  const applyAs = (p: ControlPlane, manager: string, path: string, body: unknown, force = false) =>
    p.admin.patch(`${path}?fieldManager=${manager}${force ? '&force=true' : ''}`, body, 'apply');
  const ownedBy = async (p: ControlPlane, path: string, manager: string) =>
    ((await p.admin.get(path)).metadata.managedFields as Managed[]).filter((e) => e.manager === manager).map((e) => [e.operation, e.fieldsV1]);

  const open = async (p: ControlPlane, http2: boolean, type: ResourceType, path: string, ns: string) => {
    const transport = transportOf(p, 'admin', http2);
    const obj = await transport.getJson<KubeObject>(path, {}, signal());
    return new EditSession({ type, namespace: ns, name: 'web', ...pinnedTo(transport) }, obj, { hideServerFields: true });
  };
  const previewed = (preview: ApplyPreview) => {
    assert.equal(preview.kind, 'preview', JSON.stringify(preview));
    return preview as Extract<ApplyPreview, { kind: 'preview' }>;
  };

  for (const { label, http2 } of PROTOCOLS) {
    it(`W06 [real] ${label}: the apply is the user's intent: kube-watch owns only the fields it changed, and a CI apply of the image afterwards does not conflict with it`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await applyAs(p, 'ci', cmPath(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: ns }, data: { IMAGE: 'nginx:1' } });
      const session = await open(p, http2, CONFIGMAPS, cmPath(ns), ns);
      const text = session.render();
      const preview = previewed(await previewApply(session, text.replace('IMAGE: nginx:1', 'IMAGE: nginx:1\n  LOG_LEVEL: debug'), signal()));
      assert.deepEqual(preview.changed, [['data', 'LOG_LEVEL']]);
      const applied = await applyEdit(session, preview.plan, text, signal());
      assert.equal(applied.kind, 'applied', JSON.stringify(applied));
      assert.deepEqual(await ownedBy(p, cmPath(ns), 'kube-watch'), [['Apply', { 'f:data': { 'f:LOG_LEVEL': {} } }]], 'kube-watch owns data.LOG_LEVEL and nothing else');
      // CI applies its manifest with a new image: no conflict with kube-watch.
      await applyAs(p, 'ci', cmPath(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: ns }, data: { IMAGE: 'nginx:2' } });
      assert.deepEqual((await p.admin.get(cmPath(ns))).data, { IMAGE: 'nginx:2', LOG_LEVEL: 'debug' });

      // The next edit keeps what kube-watch applied before (left out, the server would remove it).
      const next = await open(p, http2, CONFIGMAPS, cmPath(ns), ns);
      const nextText = next.render();
      const second = previewed(await previewApply(next, nextText.replace('LOG_LEVEL: debug', 'LOG_LEVEL: debug\n  TIMEOUT: 30s'), signal()));
      assert.equal((await applyEdit(next, second.plan, nextText, signal())).kind, 'applied');
      assert.deepEqual((await p.admin.get(cmPath(ns))).data, { IMAGE: 'nginx:2', LOG_LEVEL: 'debug', TIMEOUT: '30s' });
      assert.deepEqual(await ownedBy(p, cmPath(ns), 'kube-watch'), [['Apply', { 'f:data': { 'f:LOG_LEVEL': {}, 'f:TIMEOUT': {} } }]]);

      // Removing: what kube-watch alone applied goes; what CI owns stays, and the preview says who owns it.
      const third = await open(p, http2, CONFIGMAPS, cmPath(ns), ns);
      const removing = third.render().replace('  IMAGE: nginx:2\n', '').replace('  TIMEOUT: 30s\n', '');
      const removal = previewed(await previewApply(third, removing, signal()));
      assert.deepEqual(removal.kept.map((k) => [k.field, k.managers]), [[['data', 'IMAGE'], ['ci']]]);
      assert.deepEqual(removal.changed, [['data', 'TIMEOUT']]);
      assert.equal((await applyEdit(third, removal.plan, removing, signal())).kind, 'applied');
      assert.deepEqual((await p.admin.get(cmPath(ns))).data, { IMAGE: 'nginx:2', LOG_LEVEL: 'debug' });
    });

    it(`W06 [real] ${label}: a changed env var is applied inside its container by merge key: kube-watch owns the env var only, and CI's apply of containers[0].image does not conflict`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const manifest = (image: string) => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: ns },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } } },
      });
      await applyAs(p, 'argocd', deployPath(ns), manifest('nginx:1'));
      const session = await open(p, http2, DEPLOYMENTS, deployPath(ns), ns);
      const text = session.render();
      const edited = text.replace(/( +)image: nginx:1\n/, (line, indent: string) => `${line}${indent}env:\n${indent}- name: LOG_LEVEL\n${indent}  value: debug\n`);
      assert.notEqual(edited, text);
      const preview = previewed(await previewApply(session, edited, signal()));
      assert.equal((await applyEdit(session, preview.plan, edited, signal())).kind, 'applied');
      assert.deepEqual(await ownedBy(p, deployPath(ns), 'kube-watch'), [
        ['Apply', { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:env': { 'k:{"name":"LOG_LEVEL"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:name': {} } } } } } }],
      ]);
      await applyAs(p, 'argocd', deployPath(ns), manifest('nginx:2'));
      const live = await p.admin.get(deployPath(ns));
      const containers = (live.spec as { template: { spec: { containers: { name: string; image: string; env?: unknown }[] } } }).template.spec.containers;
      assert.deepEqual(containers.map((c) => [c.name, c.image, c.env]), [['web', 'nginx:2', [{ name: 'LOG_LEVEL', value: 'debug' }]]]);
    });

    it(`W06 [real] ${label}: the apply carries the resourceVersion its preview was made on: the object changed after the preview, so nothing is applied ("changed since the preview")`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info' } });
      const session = await open(p, http2, CONFIGMAPS, cmPath(ns), ns);
      const text = session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: info\n  TIMEOUT: 30s');
      const preview = previewed(await previewApply(session, text, signal()));
      assert.equal(preview.plan.resourceVersion, (await p.admin.get(cmPath(ns))).metadata.resourceVersion);
      await p.admin.patch(`${cmPath(ns)}?fieldManager=ops`, { data: { REPLICAS: '3' } }, 'merge');
      const moved = (await p.admin.get(cmPath(ns))).metadata.resourceVersion;
      const out = await applyEdit(session, preview.plan, text, signal());
      assert.equal(out.kind, 'moved', JSON.stringify(out));
      assert.equal(out.kind === 'moved' && out.message, `ConfigMap ${ns}/web changed on the server since the preview (rv ${preview.plan.resourceVersion}): nothing was applied; preview again. Your edit is kept.`);
      const after = await p.admin.get(cmPath(ns));
      assert.equal(after.metadata.resourceVersion, moved, 'nothing applied');
      assert.deepEqual(after.data, { LOG_LEVEL: 'info', REPLICAS: '3' });
    });

    it(`W06 [real] ${label}: force takes only the previewed conflicts: a conflict that appears after the forced preview refuses the apply, nothing applied, the new conflict named`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await applyAs(p, 'ci', cmPath(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: ns }, data: { IMAGE: 'nginx:1', LOG_LEVEL: 'info' } });
      const session = await open(p, http2, CONFIGMAPS, cmPath(ns), ns);
      const text = session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug').replace('IMAGE: nginx:1', 'IMAGE: nginx:1\n  TIMEOUT: 30s');
      const first = await previewApply(session, text, signal());
      assert.equal(first.kind, 'conflicts', JSON.stringify(first));
      const confirmed = first.kind === 'conflicts' ? first.conflicts : [];
      assert.deepEqual(confirmed.map((c) => `${c.manager} ${c.field}`), ['ci .data.LOG_LEVEL']);

      // Before the forced preview, argocd takes TIMEOUT: a conflict the user did not confirm.
      await applyAs(p, 'argocd', cmPath(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: ns }, data: { TIMEOUT: '10s' } });
      const refusedPreview = await previewApply(session, text, signal(), { force: confirmed });
      assert.equal(refusedPreview.kind, 'conflicts');
      assert.deepEqual(refusedPreview.kind === 'conflicts' && refusedPreview.unconfirmed.map((c) => `${c.manager} ${c.field}`), ['argocd .data.TIMEOUT']);

      // Confirmed both; then after the forced preview another manager takes IMAGE, changing it.
      const all = refusedPreview.kind === 'conflicts' ? refusedPreview.conflicts : [];
      const forced = previewed(await previewApply(session, text, signal(), { force: all }));
      assert.equal(forced.plan.force, true);
      const before = await p.admin.get(cmPath(ns));
      await applyAs(p, 'helm', cmPath(ns), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: ns }, data: { LOG_LEVEL: 'warn' } }, true);
      const moved = (await p.admin.get(cmPath(ns))).metadata.resourceVersion;
      const out = await applyEdit(session, forced.plan, text, signal());
      assert.equal(out.kind, 'moved', JSON.stringify(out));
      assert.deepEqual(out.kind === 'moved' && out.conflicts.map((c) => `${c.manager} ${c.field}`), ['helm .data.LOG_LEVEL']);
      const after = await p.admin.get(cmPath(ns));
      assert.equal(after.metadata.resourceVersion, moved, 'nothing applied');
      assert.deepEqual(after.data, { ...(before.data as object), LOG_LEVEL: 'warn' });
      assert.deepEqual(await ownedBy(p, cmPath(ns), 'kube-watch'), []);
    });

    it(`W07 [real] ${label}: a stale buffer: a label and an env var removed on the server after its base are not re-added by another change; changed, they are named "re-added (removed on the server)" and re-added only when confirmed`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
        metadata: { name: 'web', labels: { app: 'web', tier: 'cache' } },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1', env: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'DEBUG', value: '1' }] }] } } },
      });
      // Three edits open on the same version (the buffer's base), before the server changes.
      const session = await open(p, http2, DEPLOYMENTS, deployPath(ns), ns);
      const stale = await open(p, http2, DEPLOYMENTS, deployPath(ns), ns);
      const again = await open(p, http2, DEPLOYMENTS, deployPath(ns), ns);
      const text = session.render();
      // Someone removes the label and the env var; the buffer still has them.
      await p.admin.patch(`${deployPath(ns)}?fieldManager=ops`, [
        { op: 'remove', path: '/metadata/labels/tier' },
        { op: 'remove', path: '/spec/template/spec/containers/0/env/1' },
      ], 'json');
      const team = text.replace('    tier: cache\n', '    tier: cache\n    team: shop\n');
      assert.notEqual(team, text);
      const untouched = previewed(await previewApply(session, team, signal()));
      assert.deepEqual(untouched.reAdded, []);
      assert.equal((await applyEdit(session, untouched.plan, team, signal())).kind, 'applied');
      let live = await p.admin.get(deployPath(ns));
      assert.deepEqual(live.metadata.labels, { app: 'web', team: 'shop' }, 'the removed label was not re-added');
      const env = () => (live.spec as { template: { spec: { containers: { env: unknown }[] } } }).template.spec.containers[0];
      assert.deepEqual(env().env, [{ name: 'LOG_LEVEL', value: 'info' }], 'the removed env var was not re-added');

      // The same stale buffer, now changing the removed label and env var: named, left out by default.
      const changing = text.replace('tier: cache', 'tier: db').replace(/value: '1'|value: "1"/, "value: '2'");
      assert.notEqual(changing, text);
      const asked = await previewApply(stale, changing, signal());
      const shown = previewed(asked);
      assert.deepEqual(shown.reAdded.map((r) => r.field), [['metadata', 'labels', 'tier'], ['spec', 'template', 'spec', 'containers', 0, 'env', 1]]);
      assert.ok(shown.removedAt > 0, 'when the server was seen without them');
      assert.equal((await applyEdit(stale, shown.plan, changing, signal())).kind, 'applied');
      live = await p.admin.get(deployPath(ns));
      assert.deepEqual(live.metadata.labels, { app: 'web', team: 'shop' }, 'not re-added without confirmation');
      assert.equal((env().env as unknown[]).length, 1);

      // Confirmed: re-added.
      const confirmed = previewed(await previewApply(again, changing, signal(), { reAdd: true }));
      assert.equal(confirmed.reAdded.length, 2);
      assert.equal((await applyEdit(again, confirmed.plan, changing, signal())).kind, 'applied');
      live = await p.admin.get(deployPath(ns));
      assert.deepEqual(live.metadata.labels, { app: 'web', team: 'shop', tier: 'db' });
      assert.deepEqual(env().env, [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'DEBUG', value: '2' }]);
    });

    it(`W06 [real] ${label}: an apply after the object was deleted is refused (its uid is in the configuration): nothing is created again`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { LOG_LEVEL: 'info' } });
      const session = await open(p, http2, CONFIGMAPS, cmPath(ns), ns);
      const text = session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: info\n  TIMEOUT: 30s');
      const preview = previewed(await previewApply(session, text, signal()));
      await p.admin.delete(cmPath(ns));
      const out = await applyEdit(session, preview.plan, text, signal());
      assert.equal(out.kind === 'moved' && out.message, `ConfigMap ${ns}/web was deleted on the server since the preview: nothing was applied, and it was not created again. Your edit is kept.`, JSON.stringify(out));
      await assert.rejects(p.admin.get(cmPath(ns)), (err) => isStatus(err, 404));
    });
  }
});
