import assert from 'node:assert/strict';
import { objectMergeShape } from '../../src/edit/merge-keys/object-merge-shape';
import { changedPaths, threeWayMerge } from '../../src/edit/three-way-merge';

const CONFIGMAP = objectMergeShape('v1', 'ConfigMap');
const DEPLOYMENT = objectMergeShape('apps/v1', 'Deployment');

const cm = (data: Record<string, string>, labels: Record<string, string> = { app: 'web' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', labels }, data });

describe('edit: the three-way merge (base = where the edit started, theirs = live, ours = the buffer)', () => {
  it('takes each side where only it changed: different fields rebase without a conflict', () => {
    const base = cm({ a: '1', b: '1' });
    const theirs = cm({ a: '1', b: '2', c: 'new' });
    const ours = cm({ a: 'mine', b: '1' }, { app: 'web', tier: 'front' });
    const r = threeWayMerge(base, theirs, ours, CONFIGMAP);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.merged, cm({ a: 'mine', b: '2', c: 'new' }, { app: 'web', tier: 'front' }));
    assert.deepEqual(r.theirsChanged, [['data', 'b'], ['data', 'c']]);
    assert.deepEqual(r.oursChanged, [['metadata', 'labels', 'tier'], ['data', 'a']]);
  });

  it('a field both changed to different values is a conflict, and the merged object keeps the live value there', () => {
    const r = threeWayMerge(cm({ a: '1', b: '1' }), cm({ a: '2', b: '1' }), cm({ a: '3', b: 'x' }), CONFIGMAP);
    assert.deepEqual(r.conflicts, [{ path: ['data', 'a'], base: '1', theirs: '2', ours: '3' }]);
    assert.deepEqual((r.merged as { data: unknown }).data, { a: '2', b: 'x' });
  });

  it('both changed to the same value, or both removed: no conflict', () => {
    const r = threeWayMerge(cm({ a: '1', b: '1' }), cm({ a: '2' }), cm({ a: '2' }), CONFIGMAP);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual((r.merged as { data: unknown }).data, { a: '2' });
  });

  it('a removal on one side and a change on the other is a conflict; a removal against no change is a removal', () => {
    const removedVsChanged = threeWayMerge(cm({ a: '1' }), cm({}), cm({ a: '2' }), CONFIGMAP);
    assert.deepEqual(removedVsChanged.conflicts, [{ path: ['data', 'a'], base: '1', theirs: undefined, ours: '2' }]);
    const removed = threeWayMerge(cm({ a: '1', b: '1' }), cm({ a: '1', b: '2' }), cm({ b: '1' }), CONFIGMAP);
    assert.deepEqual(removed.conflicts, []);
    assert.deepEqual((removed.merged as { data: unknown }).data, { b: '2' });
  });

  it('containers (lists keyed by name) merge item by item; other lists are one value', () => {
    const dep = (containers: unknown[], args: string[]) => ({ spec: { template: { spec: { containers } } }, args });
    const base = dep([{ name: 'web', image: 'nginx:1' }, { name: 'side', image: 'envoy:1' }], ['a']);
    const theirs = dep([{ name: 'web', image: 'nginx:1' }, { name: 'side', image: 'envoy:2' }], ['a']);
    const ours = dep([{ name: 'web', image: 'nginx:2' }, { name: 'side', image: 'envoy:1' }, { name: 'log', image: 'fluent' }], ['a', 'b']);
    const r = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.merged, dep([{ name: 'web', image: 'nginx:2' }, { name: 'side', image: 'envoy:2' }, { name: 'log', image: 'fluent' }], ['a', 'b']));
    const atomic = threeWayMerge({ args: ['a'] }, { args: ['a', 'x'] }, { args: ['a', 'y'] }, DEPLOYMENT);
    assert.deepEqual(atomic.conflicts.map((c) => c.path), [['args']]);
  });

  it('changedPaths names leaves, list items by their index in the newer side', () => {
    assert.deepEqual(changedPaths({ a: { b: 1, c: [1] } }, { a: { b: 2, c: [1, 2] } }), [['a', 'b'], ['a', 'c']]);
    assert.deepEqual(changedPaths({ l: [{ name: 'x', v: 1 }] }, { l: [{ name: 'y', v: 0 }, { name: 'x', v: 2 }] }), [['l', 1, 'v'], ['l', 0]]);
  });
});

/** A Deployment with a pod template, as the merge sees it (only the parts a test names). */
function deployment(pod: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', ...metadata }, spec: { replicas: 1, template: { spec: pod } } };
}
const podOf = (obj: unknown) => (obj as ReturnType<typeof deployment>).spec.template.spec as Record<string, { name: string; [k: string]: unknown }[]>;

describe('edit: the three-way merge follows the merge keys of the type (W05)', () => {
  const init = (name: string, image: string) => ({ name, image });
  const web = (extra: Record<string, unknown> = {}) => ({ name: 'web', image: 'nginx:1', ...extra });

  it('W05 a native sidecar inserted first into initContainers while the server bumped another init container: the sidecar stays first, both changes kept', () => {
    const base = deployment({ initContainers: [init('migrate', 'migrate:1'), init('seed', 'seed:1')], containers: [web()] });
    const theirs = deployment({ initContainers: [init('migrate', 'migrate:2'), init('seed', 'seed:1')], containers: [web()] });
    const sidecar = { name: 'proxy', image: 'envoy:1', restartPolicy: 'Always' };
    const ours = deployment({ initContainers: [sidecar, init('migrate', 'migrate:1'), init('seed', 'seed:1')], containers: [web()] });
    const r = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(podOf(r.merged).initContainers, [sidecar, init('migrate', 'migrate:2'), init('seed', 'seed:1')]);
    assert.deepEqual(r.theirsChanged, [['spec', 'template', 'spec', 'initContainers', 1, 'image']], 'where the merged object has it');
    assert.deepEqual(r.oursChanged, [['spec', 'template', 'spec', 'initContainers', 0]]);
  });

  it('W05 two volumeMounts of one volume (same name, different mountPath) are two items: neither is lost', () => {
    const data = { name: 'data', mountPath: '/data' };
    const base = deployment({ containers: [web({ volumeMounts: [data] })] });
    const theirs = deployment({ containers: [web({ image: 'nginx:2', volumeMounts: [{ ...data, readOnly: true }] })] });
    const cache = { name: 'data', mountPath: '/cache', subPath: 'cache' };
    const ours = deployment({ containers: [web({ volumeMounts: [data, cache] })] });
    const r = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(podOf(r.merged).containers, [web({ image: 'nginx:2', volumeMounts: [{ ...data, readOnly: true }, cache] })]);
    assert.deepEqual(changedPaths(base, ours, DEPLOYMENT), [['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 1]]);
  });

  it('W05 env reordered by the user (a $(VAR) reference needs its variable first) keeps the user order, with the server change of a value', () => {
    const env = (host: string) => [{ name: 'URL', value: 'http://$(HOST):80' }, { name: 'HOST', value: host }];
    const base = deployment({ containers: [web({ env: env('db') })] });
    const theirs = deployment({ containers: [web({ env: env('db.shop') })] });
    const ours = deployment({ containers: [web({ env: [...env('db')].reverse() })] });
    const r = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(podOf(r.merged).containers[0].env, [{ name: 'HOST', value: 'db.shop' }, { name: 'URL', value: 'http://$(HOST):80' }]);
    assert.deepEqual(changedPaths(base, ours, DEPLOYMENT), [['spec', 'template', 'spec', 'containers', 0, 'env']], 'a reorder is a change of the list');
  });

  it('W05 the server appends while the user reorders: the user order, the server item after the items it followed', () => {
    const e = (...names: string[]) => names.map((name) => ({ name, value: name.toLowerCase() }));
    const r = threeWayMerge(deployment({ containers: [web({ env: e('A', 'B') })] }), deployment({ containers: [web({ env: e('A', 'B', 'C') })] }), deployment({ containers: [web({ env: e('B', 'A') })] }), DEPLOYMENT);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(podOf(r.merged).containers[0].env, e('B', 'A', 'C'));
  });

  it('W05 a reorder on both sides is a conflict of the whole list, named as such', () => {
    const e = (...names: string[]) => names.map((name) => ({ name, value: name.toLowerCase() }));
    const base = deployment({ containers: [web({ env: e('A', 'B', 'C') })] });
    const r = threeWayMerge(base, deployment({ containers: [web({ env: e('C', 'A', 'B') })] }), deployment({ containers: [web({ env: e('B', 'A', 'C') })] }), DEPLOYMENT);
    assert.deepEqual(r.conflicts.map((c) => [c.path, c.reason]), [[['spec', 'template', 'spec', 'containers', 0, 'env'], 'both your edit and the server reordered it']]);
    assert.deepEqual(podOf(r.merged).containers[0].env, e('C', 'A', 'B'), 'the merged object keeps the server value there');
    const same = threeWayMerge(base, deployment({ containers: [web({ env: e('B', 'A', 'C') })] }), deployment({ containers: [web({ env: e('B', 'A', 'C'), image: 'nginx:2' })] }), DEPLOYMENT);
    assert.deepEqual(same.conflicts, [], 'the same reorder on both sides agrees');
  });

  it('W05 a key twice (the server accepts two env vars of one name) is a conflict, never a guess which one is meant', () => {
    const base = deployment({ containers: [web({ env: [{ name: 'A', value: '1' }] })] });
    const theirs = deployment({ containers: [web({ env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] })] });
    const ours = deployment({ containers: [web({ env: [{ name: 'A', value: '3' }] })] });
    const r = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.deepEqual(r.conflicts.map((c) => [c.path, c.reason]), [[['spec', 'template', 'spec', 'containers', 0, 'env'], 'on the server, name=A appears twice']]);
    const oursOnly = threeWayMerge(base, deployment({ containers: [web({ image: 'nginx:2', env: [{ name: 'A', value: '1' }] })] }), theirs, DEPLOYMENT);
    assert.deepEqual(oursOnly.conflicts, [], 'a list only one side changed is taken from it whole');
  });

  it('W05 both sides inserting at the same place cannot be ordered without a guess: a conflict', () => {
    const base = deployment({ containers: [web()] });
    const r = threeWayMerge(base, deployment({ containers: [web(), { name: 'mesh', image: 'istio' }] }), deployment({ containers: [web(), { name: 'log', image: 'fluent' }] }), DEPLOYMENT);
    assert.deepEqual(r.conflicts.map((c) => c.reason), ['your edit and the server both inserted items where name=log goes']);
  });

  it('W05 ports are keyed by containerPort and protocol: 53/TCP and 53/UDP are two ports', () => {
    const p = (protocol: string, extra: Record<string, unknown> = {}) => ({ containerPort: 53, protocol, ...extra });
    const base = deployment({ containers: [web({ ports: [p('TCP')] })] });
    const r = threeWayMerge(base, deployment({ containers: [web({ ports: [p('TCP', { hostPort: 5353 })] })] }), deployment({ containers: [web({ ports: [p('TCP'), p('UDP')] })] }), DEPLOYMENT);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(podOf(r.merged).containers[0].ports, [p('TCP', { hostPort: 5353 }), p('UDP')]);
  });

  it('W05 ownerReferences by uid (each one value), finalizers as a set: additions on both sides are all kept', () => {
    const owner = (uid: string, name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name, uid });
    const base = deployment({}, { ownerReferences: [owner('u1', 'a')], finalizers: ['x'] });
    const theirs = deployment({}, { ownerReferences: [owner('u1', 'a'), owner('u2', 'b')], finalizers: ['x', 'controller/y'] });
    const ours = deployment({}, { ownerReferences: [owner('u0', 'z'), owner('u1', 'a')], finalizers: ['x', 'mine/z'] });
    const r = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.deepEqual(r.conflicts, []);
    const meta = (r.merged as { metadata: Record<string, unknown> }).metadata;
    assert.deepEqual(meta.ownerReferences, [owner('u0', 'z'), owner('u1', 'a'), owner('u2', 'b')]);
    assert.deepEqual(meta.finalizers, ['x', 'controller/y', 'mine/z']);
  });

  it('W05 atomic lists (args, tolerations) and atomic maps (a label selector) are one value: both changed is a conflict', () => {
    const base = deployment({ tolerations: [{ key: 'a', operator: 'Exists' }], containers: [web({ args: ['--a'] })] });
    const theirs = deployment({ tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }], containers: [web({ args: ['--a', '--b'] })] });
    const ours = deployment({ tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'c', operator: 'Exists' }], containers: [web({ args: ['--a', '--c'] })] });
    const r = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.deepEqual(r.conflicts.map((c) => c.path.join('.')), ['spec.template.spec.tolerations', 'spec.template.spec.containers.0.args']);
    const sel = (labels: Record<string, string>) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: labels } } });
    const s = threeWayMerge(sel({ app: 'web' }), sel({ app: 'web', tier: 'a' }), sel({ app: 'web', zone: 'b' }), DEPLOYMENT);
    assert.deepEqual(s.conflicts.map((c) => c.path.join('.')), ['spec.selector']);
  });

  it('W05 a custom resource: lists its CRD gives keys merge by them, lists without keys are one value', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'routes.example.com' },
      spec: {
        versions: [
          {
            name: 'v1',
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      backends: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['host', 'port'], items: { type: 'object' } },
                      hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                      rules: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    const shape = objectMergeShape('example.com/v1', 'Route', crd as never);
    const route = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Route', metadata: { name: 'r' }, spec });
    const b = (host: string, port: number, weight: number) => ({ host, port, weight });
    const base = route({ backends: [b('a', 80, 1)], hosts: ['x'], rules: [{ name: 'r1', path: '/' }] });
    const theirs = route({ backends: [b('a', 80, 2)], hosts: ['x', 'y'], rules: [{ name: 'r1', path: '/v1' }] });
    const ours = route({ backends: [b('a', 80, 1), b('a', 81, 1)], hosts: ['x', 'z'], rules: [{ name: 'r1', path: '/' }, { name: 'r2', path: '/b' }] });
    const r = threeWayMerge(base, theirs, ours, shape);
    assert.deepEqual(r.conflicts.map((c) => c.path.join('.')), ['spec.rules'], 'rules has no list type: one value, changed on both sides');
    const spec = (r.merged as { spec: Record<string, unknown> }).spec;
    assert.deepEqual(spec.backends, [b('a', 80, 2), b('a', 81, 1)]);
    assert.deepEqual(spec.hosts, ['x', 'y', 'z']);
    const noCrd = threeWayMerge(base, theirs, route({ backends: [b('a', 80, 1), b('a', 81, 1)], hosts: ['x'], rules: [{ name: 'r1', path: '/' }] }), objectMergeShape('example.com/v1', 'Route'));
    assert.deepEqual(noCrd.conflicts.map((c) => c.path.join('.')), ['spec.backends'], 'without its CRD, a custom list is one value');
  });
});
