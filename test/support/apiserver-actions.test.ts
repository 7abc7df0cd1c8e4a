/**
 * The local API server's writes behind actions, through the real transport, checked against what
 * kube-apiserver 1.34.9 answered (apiserver/actions-1.34.md): `/scale`, delete with options and
 * what a delete sets going (grace periods, propagation, namespaces), evictions with
 * PodDisruptionBudgets.
 */
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiError } from '../../src/base';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { ACTION_TYPES, FakeApiServer, type KubeObjectJson } from './apiserver';
import { until } from './until';

const signal = () => new AbortController().signal;
const DEPLOY = '/apis/apps/v1/namespaces/shop/deployments';
const PODS = '/api/v1/namespaces/shop/pods';

function transportFor(server: FakeApiServer): KubeConfigTransport {
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig());
  return new KubeConfigTransport(kc);
}

function pod(name: string, opts: { node?: string; labels?: Record<string, string>; running?: boolean; owner?: KubeObjectJson } = {}): object {
  return {
    metadata: {
      namespace: 'shop',
      name,
      labels: opts.labels ?? {},
      ...(opts.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: opts.owner.metadata.name, uid: opts.owner.metadata.uid, controller: true }] } : {}),
    },
    spec: { ...(opts.node ? { nodeName: opts.node } : {}), containers: [{ name: 'main', image: 'busybox' }] },
    status: opts.running ? { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } : { phase: 'Pending' },
  };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof ApiError, `expected an ApiError, got ${String(err)}`);
  return err;
}

describe('local API server: the writes behind actions (as kube-apiserver 1.34 answers them)', () => {
  for (const http2 of [false, true]) {
    const label = http2 ? 'HTTP/2' : 'HTTP/1.1';
    describe(`over ${label}`, () => {
      let server: FakeApiServer;
      let transport: KubeConfigTransport;
      let events: string[];
      let stopWatching: () => void;
      beforeEach(async () => {
        server = await FakeApiServer.start({ http2, timeScale: 20 });
        for (const def of ACTION_TYPES) server.defineResource(def);
        transport = transportFor(server);
        events = [];
        stopWatching = server.onChange((c) => events.push(`${c.type} ${c.resource} ${c.object.metadata.name} ${c.rv}`));
      });
      afterEach(async () => {
        stopWatching();
        transport.dispose();
        await server.close();
      });

      it(`(${label}) /scale: a merge patch sets the Deployment's replicas; the answer is the Scale at its new resourceVersion`, async () => {
        server.create('deployments.apps', { metadata: { namespace: 'shop', name: 'web', generation: 1 }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } } });
        const scale = await transport.write<KubeObjectJson>({ method: 'PATCH', path: `${DEPLOY}/web/scale`, body: '{"spec":{"replicas":3}}', contentType: 'application/merge-patch+json' }, signal());
        const stored = server.get('deployments.apps', 'shop', 'web')!;
        assert.equal(scale.kind, 'Scale');
        assert.equal(scale.apiVersion, 'autoscaling/v1');
        assert.deepEqual(scale.spec, { replicas: 3 });
        assert.deepEqual(scale.status, { replicas: 0, selector: 'app=web' });
        assert.equal(scale.metadata.resourceVersion, stored.metadata.resourceVersion);
        assert.equal(scale.metadata.uid, stored.metadata.uid);
        assert.equal((stored.spec as { replicas: number }).replicas, 3);
        assert.equal(stored.metadata.generation, 2);
        const same = await transport.write<KubeObjectJson>({ method: 'PATCH', path: `${DEPLOY}/web/scale`, body: '{"spec":{"replicas":3}}', contentType: 'application/merge-patch+json' }, signal());
        assert.equal(same.metadata.resourceVersion, stored.metadata.resourceVersion, 'no change, nothing stored');
        const negative = await failure(transport.write({ method: 'PATCH', path: `${DEPLOY}/web/scale`, body: '{"spec":{"replicas":-1}}', contentType: 'application/merge-patch+json' }, signal()));
        assert.equal(negative.code, 422);
        assert.equal(negative.message, 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
        const stale = await failure(transport.write({ method: 'PUT', path: `${DEPLOY}/web/scale`, body: JSON.stringify({ ...scale, metadata: { ...scale.metadata, resourceVersion: '1' }, spec: { replicas: 5 } }) }, signal()));
        assert.equal(stale.code, 409);
        assert.equal((await failure(transport.write({ method: 'PATCH', path: `${DEPLOY}/nope/scale`, body: '{}', contentType: 'application/merge-patch+json' }, signal()))).code, 404);
      });

      it(`(${label}) delete: an unbound Pod goes at once (MODIFIED then DELETED, the answer at the DELETED rv); a bound one gets its grace period first`, async () => {
        server.deletes.podTerminationSeconds = 1;
        server.create('pods', pod('loose'));
        server.create('pods', pod('bound', { node: 'node-1' }));
        const loose = await transport.write<KubeObjectJson>({ method: 'DELETE', path: `${PODS}/loose`, body: '{"gracePeriodSeconds":30}' }, signal());
        assert.equal(server.get('pods', 'shop', 'loose'), undefined);
        assert.deepEqual(events.slice(-2).map((e) => e.split(' ').slice(0, 3).join(' ')), ['MODIFIED pods loose', 'DELETED pods loose']);
        assert.equal(loose.metadata.resourceVersion, events.at(-1)!.split(' ')[3]);
        assert.equal(loose.metadata.deletionGracePeriodSeconds, 0);

        const bound = await transport.write<KubeObjectJson>({ method: 'DELETE', path: `${PODS}/bound`, query: { gracePeriodSeconds: '20' } }, signal());
        assert.equal(bound.metadata.deletionGracePeriodSeconds, 20);
        assert.ok(bound.metadata.deletionTimestamp);
        assert.equal(server.get('pods', 'shop', 'bound')?.metadata.resourceVersion, bound.metadata.resourceVersion, 'still there, terminating');
        await until(() => server.get('pods', 'shop', 'bound') === undefined, 'the kubelet to end its grace period');
        assert.deepEqual(events.filter((e) => e.includes(' bound ')).map((e) => e.split(' ')[0]), ['ADDED', 'MODIFIED', 'DELETED']);
      });

      it(`(${label}) delete: preconditions fail with the server's 409 and delete nothing; an unknown propagation policy is a 422`, async () => {
        const created = server.create('pods', pod('web-1'));
        const uid = await failure(transport.write({ method: 'DELETE', path: `${PODS}/web-1`, body: '{"preconditions":{"uid":"nope"}}' }, signal()));
        assert.equal(uid.code, 409);
        assert.equal(uid.message, `Operation cannot be fulfilled on Pod "web-1": the UID in the precondition (nope) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`);
        const rv = await failure(transport.write({ method: 'DELETE', path: `${PODS}/web-1`, body: '{"preconditions":{"resourceVersion":"1"}}' }, signal()));
        assert.match(rv.message, /the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/);
        const bogus = await failure(transport.write({ method: 'DELETE', path: `${PODS}/web-1`, query: { propagationPolicy: 'Bogus' } }, signal()));
        assert.equal(bogus.code, 422);
        assert.ok(server.get('pods', 'shop', 'web-1'), 'nothing deleted');
        const missing = await failure(transport.write({ method: 'DELETE', path: `${PODS}/nope` }, signal()));
        assert.equal(missing.message, 'pods "nope" not found');
        await transport.write({ method: 'DELETE', path: `${PODS}/web-1`, body: JSON.stringify({ preconditions: { uid: created.metadata.uid } }) }, signal());
        assert.equal(server.get('pods', 'shop', 'web-1'), undefined);
      });

      it(`(${label}) delete: Background takes the dependents after the owner, Foreground before it, Orphan frees them`, async () => {
        const make = (name: string) => {
          const d = server.create('deployments.apps', { metadata: { namespace: 'shop', name }, spec: { replicas: 1 } });
          const rs = server.create('replicasets.apps', { metadata: { namespace: 'shop', name: `${name}-rs`, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: d.metadata.uid, controller: true }] }, spec: { replicas: 1 } });
          server.create('pods', pod(`${name}-pod`, { owner: rs }));
          return d;
        };
        make('bg');
        make('fg');
        make('or');
        const bg = await transport.write<KubeObjectJson>({ method: 'DELETE', path: `${DEPLOY}/bg` }, signal());
        assert.equal(server.get('deployments.apps', 'shop', 'bg'), undefined);
        assert.equal(bg.metadata.deletionTimestamp, undefined);
        await until(() => !server.get('pods', 'shop', 'bg-pod') && !server.get('replicasets.apps', 'shop', 'bg-rs'), 'the collector to take the ReplicaSet and its Pod');

        const fg = await transport.write<KubeObjectJson>({ method: 'DELETE', path: `${DEPLOY}/fg`, body: '{"propagationPolicy":"Foreground"}' }, signal());
        assert.deepEqual(fg.metadata.finalizers, ['foregroundDeletion']);
        assert.ok(fg.metadata.deletionTimestamp);
        await until(() => !server.get('deployments.apps', 'shop', 'fg'), 'the Deployment to go after its dependents');
        const order = events.filter((e) => e.startsWith('DELETED') && / fg/.test(e)).map((e) => e.split(' ')[2]);
        assert.deepEqual(order, ['fg-rs', 'fg-pod', 'fg'], 'dependents first');

        const or = await transport.write<KubeObjectJson>({ method: 'DELETE', path: `${DEPLOY}/or`, query: { propagationPolicy: 'Orphan' } }, signal());
        assert.deepEqual(or.metadata.finalizers, ['orphan']);
        await until(() => !server.get('deployments.apps', 'shop', 'or'), 'the orphaning delete');
        assert.equal(server.get('replicasets.apps', 'shop', 'or-rs')?.metadata.ownerReferences, undefined, 'the ReplicaSet is free');
        assert.ok(server.get('pods', 'shop', 'or-pod'));
      });

      it(`(${label}) delete: a namespace turns Terminating, then goes with everything in it`, async () => {
        server.create('namespaces', { metadata: { name: 'doomed' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
        server.create('configmaps', { metadata: { namespace: 'doomed', name: 'settings' } });
        const ns = await transport.write<KubeObjectJson>({ method: 'DELETE', path: '/api/v1/namespaces/doomed' }, signal());
        assert.deepEqual(ns.status, { phase: 'Terminating' });
        assert.ok(ns.metadata.deletionTimestamp);
        await until(() => !server.get('namespaces', undefined, 'doomed'), 'the namespace controller');
        assert.equal(server.get('configmaps', 'doomed', 'settings'), undefined);
      });

      it(`(${label}) eviction: a PodDisruptionBudget with no disruption left refuses with 429 and its numbers; one that allows it takes one`, async () => {
        server.deletes.podTerminationSeconds = 0;
        server.create('poddisruptionbudgets.policy', { metadata: { namespace: 'shop', name: 'web', generation: 1 }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
        server.create('pods', pod('web-1', { node: 'node-1', labels: { app: 'web' }, running: true }));
        const evict = (name: string) => transport.write({ method: 'POST', path: `${PODS}/${name}/eviction`, body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'shop' } }) }, signal());
        const blocked = await failure(evict('web-1'));
        assert.equal(blocked.code, 429);
        assert.equal(blocked.reason, 'TooManyRequests');
        assert.equal(blocked.message, "Cannot evict pod as it would violate the pod's disruption budget.");
        assert.deepEqual(blocked.status.details?.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }]);
        assert.ok(server.get('pods', 'shop', 'web-1'));

        server.create('pods', pod('web-2', { node: 'node-1', labels: { app: 'web' }, running: true }));
        assert.deepEqual(await evict('web-1'), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
        const budget = server.get('poddisruptionbudgets.policy', 'shop', 'web')!.status as { disruptionsAllowed: number; disruptedPods: Record<string, string> };
        assert.equal(budget.disruptionsAllowed, 0);
        assert.deepEqual(Object.keys(budget.disruptedPods), ['web-1']);
        await until(() => !server.get('pods', 'shop', 'web-1'), 'the evicted Pod to go');
        assert.equal((await failure(evict('web-2'))).code, 429, 'web-2 is the last healthy one');

        server.create('pods', pod('pending', { node: 'node-1', labels: { app: 'web' } }));
        assert.equal(((await evict('pending')) as { code: number }).code, 201, 'a Pod that is not Running ignores the budget');
        assert.equal((await failure(evict('nope'))).code, 404);
        const mismatch = await failure(transport.write({ method: 'POST', path: `${PODS}/web-2/eviction`, body: JSON.stringify({ metadata: { name: 'other' } }) }, signal()));
        assert.equal(mismatch.message, 'name in URL does not match name in Eviction object');
      });

      it(`(${label}) a read-only user gets RBAC's 403 for each of them, and nothing changes`, async () => {
        server.create('deployments.apps', { metadata: { namespace: 'shop', name: 'web' }, spec: { replicas: 2 } });
        server.create('pods', pod('web-1', { node: 'node-1', running: true }));
        server.access.user = 'reader';
        server.access.readOnly();
        const scale = await failure(transport.write({ method: 'PATCH', path: `${DEPLOY}/web/scale`, body: '{"spec":{"replicas":3}}', contentType: 'application/merge-patch+json' }, signal()));
        assert.equal(scale.message, 'deployments.apps "web" is forbidden: User "reader" cannot patch resource "deployments/scale" in API group "apps" in the namespace "shop"');
        const evict = await failure(transport.write({ method: 'POST', path: `${PODS}/web-1/eviction`, body: '{}' }, signal()));
        assert.equal(evict.message, 'pods "web-1" is forbidden: User "reader" cannot create resource "pods/eviction" in API group "" in the namespace "shop"');
        assert.deepEqual(evict.status.details, { name: 'web-1', kind: 'pods' });
        assert.equal(((server.get('deployments.apps', 'shop', 'web')!.spec) as { replicas: number }).replicas, 2);
        assert.ok(server.get('pods', 'shop', 'web-1'));
        const list = await transport.list('/api/v1/namespaces/shop/pods', {}, signal());
        assert.equal(list.items?.length, 1, 'reads are allowed');
      });
    });
  }
});
