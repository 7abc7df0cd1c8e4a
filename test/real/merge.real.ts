import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dump, load } from 'js-yaml';
import { fetchOpenApiV3, mergeKeysFromOpenApi, renderMergeKeys } from '../../scripts/merge-keys/openapi-merge-keys';
import { EditSession, type EditWrite } from '../../src/edit';
import type { KubeObject, ResourceType } from '../../src/informer';
import { DEPLOYMENTS, PROTOCOLS, uniqueName, useControlPlane, useTransports, type ControlPlane } from './support';
import { pinnedTo } from '../support/pinned-origin';

const TABLE_FILE = path.join(import.meta.dirname, '..', '..', 'src', 'edit', 'merge-keys', 'builtin-merge-keys.ts');

type Pod = { initContainers?: Record<string, unknown>[]; containers: (Record<string, unknown> & { env?: { name: string }[]; volumeMounts?: unknown[] })[]; volumes?: unknown[] };
type DeploymentJson = { metadata: { resourceVersion: string }; spec: { template: { spec: Pod } } };

/**
 * W05 against a real kube-apiserver 1.34.9: the merge keys the merge uses are the ones the
 * server's OpenAPI gives (the committed table is regenerated and compared), and a save that
 * merges a server change with the user's edit of a list (a sidecar inserted first, env reordered,
 * two mounts of one volume, a custom resource's keyed list) lands on the server with both changes
 * in the user's order; a reorder on both sides is a conflict, and nothing is sent.
 */
describe('[real] the three-way merge by merge keys (kube-apiserver 1.34)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportAs = useTransports();
  const signal = () => new AbortController().signal;

  it('W05 [real] the committed merge-key table (src/edit/merge-keys/builtin-merge-keys.ts) is what the server OpenAPI v3 gives, regenerated now', async () => {
    const { documents, source } = await fetchOpenApiV3((p) => plane().admin.get(p));
    assert.ok(documents.length > 15, `only ${documents.length} group versions`);
    assert.equal(source, 'kube-apiserver v1.34.9 /openapi/v3');
    assert.equal(fs.readFileSync(TABLE_FILE, 'utf8'), renderMergeKeys(mergeKeysFromOpenApi(documents), source), 'run `node --import tsx scripts/merge-keys/generate.ts`');
  });

  const transportOf = (p: ControlPlane, http2: boolean) => transportAs(p, 'admin', http2);
  const deploymentPath = (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments/web`;

  /** A Deployment `web` with `pod`, and an edit session on it as our transport reads it. */
  const openDeployment = async (p: ControlPlane, http2: boolean, pod: Pod, writes: EditWrite[]) => {
    const ns = await p.setup.namespace();
    await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: pod } },
    });
    const transport = transportOf(p, http2);
    const obj = await transport.getJson<KubeObject>(deploymentPath(ns), {}, signal());
    const session = new EditSession({ type: DEPLOYMENTS, namespace: ns, name: 'web', ...pinnedTo(transport) }, obj, { hideServerFields: true, onWrite: (w) => writes.push(w) });
    return { ns, session };
  };
  /** The buffer after the user changed the pod template (`change` edits the parsed YAML, as typing would). */
  const editPod = (session: EditSession, change: (pod: Pod) => void) => {
    const doc = load(session.render()) as DeploymentJson;
    change(doc.spec.template.spec);
    return dump(doc, { noRefs: true, lineWidth: -1 });
  };
  const podOnServer = async (p: ControlPlane, ns: string) => ((await p.admin.get(deploymentPath(ns))) as unknown as DeploymentJson).spec.template.spec;
  const names = (items: unknown[] | undefined) => (items ?? []).map((i) => (i as { name: string }).name);

  for (const { label, http2 } of PROTOCOLS) {
    it(`W05 [real] ${label}: a native sidecar inserted first into initContainers while another manager bumped an init container's image: saved first, with the new image`, async () => {
      const p = plane();
      const writes: EditWrite[] = [];
      const pod: Pod = { initContainers: [{ name: 'migrate', image: 'migrate:1' }, { name: 'seed', image: 'seed:1' }], containers: [{ name: 'web', image: 'nginx:1' }] };
      const { ns, session } = await openDeployment(p, http2, pod, writes);
      const text = editPod(session, (s) => s.initContainers!.unshift({ name: 'proxy', image: 'envoy:1', restartPolicy: 'Always' }));
      await p.admin.patch(`${deploymentPath(ns)}?fieldManager=image-bumper`, { spec: { template: { spec: { initContainers: [{ name: 'seed', image: 'seed:2' }] } } } }, 'strategic');
      session.noteLive((await p.admin.get(deploymentPath(ns))) as unknown as KubeObject);

      const out = await session.save(text, signal());
      assert.equal(out.kind, 'saved', JSON.stringify(out));
      const init = (await podOnServer(p, ns)).initContainers!;
      assert.deepEqual(names(init), ['proxy', 'migrate', 'seed'], 'the sidecar first, as the user put it');
      assert.deepEqual(init.map((c) => c.image), ['envoy:1', 'migrate:1', 'seed:2'], "and the other manager's image kept");
      assert.deepEqual(out.kind === 'saved' && out.rebased, { fields: [['spec', 'template', 'spec', 'initContainers', 2, 'image']], manager: 'image-bumper' }, 'the rebased field where the saved object has it, and who changed it');
    });

    it(`W05 [real] ${label}: env reordered by the user (a $(VAR) reference after its variable) while the server changed a value, read again after a 409: saved in the user's order with the server's value`, async () => {
      const p = plane();
      const writes: EditWrite[] = [];
      const pod: Pod = { containers: [{ name: 'web', image: 'nginx:1', env: [{ name: 'URL', value: 'http://$(HOST):80' }, { name: 'HOST', value: 'db' }] as never }] };
      const { ns, session } = await openDeployment(p, http2, pod, writes);
      const text = editPod(session, (s) => s.containers[0].env!.reverse());
      // The session is not told (no watch): the update with the old resourceVersion gets a 409, then the merge.
      await p.admin.patch(`${deploymentPath(ns)}?fieldManager=config-bot`, { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'HOST', value: 'db.shop' }] }] } } } }, 'strategic');

      const out = await session.save(text, signal());
      assert.equal(out.kind, 'saved', JSON.stringify(out));
      assert.deepEqual((await podOnServer(p, ns)).containers[0].env, [{ name: 'HOST', value: 'db.shop' }, { name: 'URL', value: 'http://$(HOST):80' }]);
      assert.deepEqual(writes.map((w) => w.result), ['409 Conflict', 'ok']);
    });

    it(`W05 [real] ${label}: a second mount of the same volume at another path, while the server made the first one read-only and changed the image: both mounts saved`, async () => {
      const p = plane();
      const writes: EditWrite[] = [];
      const pod: Pod = { volumes: [{ name: 'data', emptyDir: {} }], containers: [{ name: 'web', image: 'nginx:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] };
      const { ns, session } = await openDeployment(p, http2, pod, writes);
      const text = editPod(session, (s) => s.containers[0].volumeMounts!.push({ name: 'data', mountPath: '/cache', subPath: 'cache' }));
      await p.admin.patch(`${deploymentPath(ns)}?fieldManager=image-bumper`, { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2', volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }] }] } } } }, 'strategic');
      session.noteLive((await p.admin.get(deploymentPath(ns))) as unknown as KubeObject);

      const out = await session.save(text, signal());
      assert.equal(out.kind, 'saved', JSON.stringify(out));
      const web = (await podOnServer(p, ns)).containers[0];
      assert.equal(web.image, 'nginx:2');
      assert.deepEqual(web.volumeMounts, [{ name: 'data', mountPath: '/data', readOnly: true }, { name: 'data', mountPath: '/cache', subPath: 'cache' }]);
    });

    it(`W05 [real] ${label}: env reordered on both sides is a conflict of the list, and nothing is sent`, async () => {
      const p = plane();
      const writes: EditWrite[] = [];
      const env = ['A', 'B', 'C'].map((name) => ({ name, value: name.toLowerCase() }));
      const { ns, session } = await openDeployment(p, http2, { containers: [{ name: 'web', image: 'nginx:1', env }] }, writes);
      const text = editPod(session, (s) => s.containers[0].env!.reverse());
      const theirs = [env[2], env[0], env[1]];
      await p.admin.patch(`${deploymentPath(ns)}?fieldManager=config-bot`, [{ op: 'replace', path: '/spec/template/spec/containers/0/env', value: theirs }], 'json');
      const live = (await p.admin.get(deploymentPath(ns))) as unknown as DeploymentJson;
      session.noteLive(live as unknown as KubeObject);

      const out = await session.save(text, signal());
      assert.equal(out.kind, 'conflict', JSON.stringify(out));
      assert.deepEqual(out.kind === 'conflict' && out.conflicts.map((c) => [c.path.join('.'), c.reason]), [['spec.template.spec.containers.0.env', 'both your edit and the server reordered it']]);
      assert.deepEqual(writes, [], 'nothing sent');
      const after = (await p.admin.get(deploymentPath(ns))) as unknown as DeploymentJson;
      assert.equal(after.metadata.resourceVersion, live.metadata.resourceVersion);
      assert.deepEqual(names(after.spec.template.spec.containers[0].env), ['C', 'A', 'B']);
    });

    it(`W05 [real] ${label}: a custom resource: a list its CRD keys (x-kubernetes-list-map-keys) merges item by item; one without keys is one value`, async () => {
      const p = plane();
      const group = `${uniqueName('merge')}.example.com`;
      const crdName = `routes.${group}`;
      await p.admin.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
        metadata: { name: crdName },
        spec: {
          group,
          scope: 'Namespaced',
          names: { plural: 'routes', singular: 'route', kind: 'Route', listKind: 'RouteList' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: {
                    spec: {
                      type: 'object',
                      properties: {
                        backends: {
                          type: 'array',
                          'x-kubernetes-list-type': 'map',
                          'x-kubernetes-list-map-keys': ['host', 'port'],
                          items: { type: 'object', required: ['host', 'port'], properties: { host: { type: 'string' }, port: { type: 'integer' }, weight: { type: 'integer' } } },
                        },
                        rules: { type: 'array', items: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          ],
        },
      });
      await p.setup.crdEstablished(crdName);
      const ns = await p.setup.namespace();
      const routePath = `/apis/${group}/v1/namespaces/${ns}/routes/r`;
      await p.admin.post(`/apis/${group}/v1/namespaces/${ns}/routes`, { apiVersion: `${group}/v1`, kind: 'Route', metadata: { name: 'r' }, spec: { backends: [{ host: 'a', port: 80, weight: 1 }], rules: ['/'] } });
      const transport = transportOf(p, http2);
      const crd = await transport.getJson<KubeObject>(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`, {}, signal());
      const type: ResourceType = { group, version: 'v1', resource: 'routes', kind: 'Route', namespaced: true };
      const session = new EditSession({ type, namespace: ns, name: 'r', ...pinnedTo(transport) }, await transport.getJson<KubeObject>(routePath, {}, signal()), { hideServerFields: true, customResourceDefinition: () => crd });

      const doc = load(session.render()) as { spec: { backends: unknown[]; rules: string[] } };
      doc.spec.backends.unshift({ host: 'b', port: 80, weight: 1 });
      const text = dump(doc);
      await p.admin.patch(routePath, { spec: { backends: [{ host: 'a', port: 80, weight: 5 }] } }, 'merge');
      session.noteLive((await p.admin.get(routePath)) as unknown as KubeObject);
      const out = await session.save(text, signal());
      assert.equal(out.kind, 'saved', JSON.stringify(out));
      assert.deepEqual(((await p.admin.get(routePath)) as unknown as { spec: unknown }).spec, { backends: [{ host: 'b', port: 80, weight: 1 }, { host: 'a', port: 80, weight: 5 }], rules: ['/'] });

      const again = load(session.render()) as { spec: { rules: string[] } };
      again.spec.rules.push('/mine');
      await p.admin.patch(routePath, { spec: { rules: ['/', '/theirs'] } }, 'merge');
      session.noteLive((await p.admin.get(routePath)) as unknown as KubeObject);
      const conflict = await session.save(dump(again), signal());
      assert.equal(conflict.kind, 'conflict', JSON.stringify(conflict));
      assert.deepEqual(conflict.kind === 'conflict' && conflict.conflicts.map((c) => c.path.join('.')), ['spec.rules']);
    });
  }
});
