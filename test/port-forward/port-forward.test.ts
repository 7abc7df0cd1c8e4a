import assert from 'node:assert/strict';
import { StreamsRig, get, until } from './rig';

/**
 * Port-forwards that follow their pods (issue 24, S01 to S04, S07), through our real transport
 * and the manager's ad-hoc watches, against the local API server's port-forward (WebSocket,
 * `v4.channel.k8s.io`) whose simulated pods answer HTTP with their names.
 */
describe('port-forward: forwards that follow their pods (local API server)', function () {
  this.timeout(120_000);
  let rig: StreamsRig;

  afterEach(async () => {
    await rig?.close();
  });

  it('S01 forwards a local port to a pod and reads its answer', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await f.start();
    assert.equal(f.status.phase, 'ready');
    assert.equal(f.status.pod, 'web-1');
    const answer = await get(f.status.localPort);
    assert.deepEqual(answer, { status: 200, body: 'web-1\n' });
    await until(() => f.status.served === 1, () => `served ${JSON.stringify(f.status)}`);
    assert.ok(f.status.bytesIn > 0 && f.status.bytesOut > 0);
    const upgrades = rig.server.requests.filter((r) => r.path.endsWith('/portforward'));
    assert.ok(upgrades.every((r) => r.status === 101 && r.protocol === 'http/1.1'));
  });

  it('S02 the pod is deleted: the next connection reaches the new pod of the Service', async () => {
    rig = await StreamsRig.start();
    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 'http', name: 'http' }]);
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 });
    await f.start();
    assert.equal((await get(f.status.localPort)).body, 'web-1\n');
    rig.server.delete('pods', 'shop', 'web-1');
    rig.pod('web-2', { app: 'web' });
    await until(() => f.status.pod === 'web-2', () => `switched to web-2: ${JSON.stringify(f.status)}`);
    assert.equal((await get(f.status.localPort)).body, 'web-2\n');
    assert.equal(f.status.switches, 1);
    assert.equal(f.status.failed, 0);
  });

  it('S03 the pod stops being ready: traffic moves to the other ready pod of the Deployment', async () => {
    rig = await StreamsRig.start();
    const deploy = rig.server.create('deployments.apps', { metadata: { namespace: 'shop', name: 'web', labels: { app: 'web' } }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } } } } });
    const rs = rig.server.create('replicasets.apps', { metadata: { namespace: 'shop', name: 'web-5d8', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deploy.metadata.uid, controller: true }] }, spec: { selector: { matchLabels: { app: 'web' } } } });
    rig.pod('web-5d8-a', { app: 'web' }, { owner: rs as never });
    rig.pod('web-5d8-b', { app: 'web' }, { owner: rs as never });
    rig.pod('stray', { app: 'web' });
    rig.server.update('pods', { ...rig.server.get('pods', 'shop', 'stray')!, metadata: { ...rig.server.get('pods', 'shop', 'stray')!.metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: 'x', controller: true }] } });
    const f = rig.forward({ kind: 'Deployment', namespace: 'shop', name: 'web', port: 8080, localPort: 0 });
    await f.start();
    const first = (await get(f.status.localPort)).body.trim();
    assert.ok(first === 'web-5d8-a' || first === 'web-5d8-b', first);
    rig.setReady(first, false);
    const other = first === 'web-5d8-a' ? 'web-5d8-b' : 'web-5d8-a';
    await until(() => f.status.pod === other, () => `moved to ${other}: ${JSON.stringify(f.status)}`);
    for (let i = 0; i < 3; i++) assert.equal((await get(f.status.localPort)).body, `${other}\n`);
    assert.equal(rig.server.podStreams.ports.answered.get('stray'), undefined, 'a pod the Deployment does not own is never used');
  });

  it('S03 a Service\'s EndpointSlices decide which of its ready pods take traffic; a StatefulSet uses only its own pods', async () => {
    rig = await StreamsRig.start();
    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 8080 }]);
    rig.pod('web-1', { app: 'web' });
    rig.pod('web-2', { app: 'web' });
    const slice = (ready: string[]) => ({
      metadata: { namespace: 'shop', name: 'web-abc', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4',
      endpoints: ['web-1', 'web-2'].map((n, i) => ({ addresses: [`10.0.0.${i + 1}`], conditions: { ready: ready.includes(n) }, targetRef: { kind: 'Pod', namespace: 'shop', name: n } })),
    });
    rig.server.create('endpointslices.discovery.k8s.io', slice(['web-2']));
    const f = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 });
    await f.start();
    assert.equal(f.status.pod, 'web-2', 'web-1 is Ready but the slice does not list it as ready');
    assert.equal((await get(f.status.localPort)).body, 'web-2\n');
    rig.server.update('endpointslices.discovery.k8s.io', { ...rig.server.get('endpointslices.discovery.k8s.io', 'shop', 'web-abc')!, ...slice(['web-1']) });
    await until(() => f.status.pod === 'web-1', () => `moved with the slice: ${JSON.stringify(f.status)}`);
    assert.equal((await get(f.status.localPort)).body, 'web-1\n');

    const sts = rig.server.create('statefulsets.apps', { metadata: { namespace: 'shop', name: 'db' }, spec: { selector: { matchLabels: { app: 'db' } } } });
    const other = rig.server.create('statefulsets.apps', { metadata: { namespace: 'shop', name: 'db-old' }, spec: { selector: { matchLabels: { app: 'db' } } } });
    rig.pod('impostor', { app: 'db' }, { owner: other as never, ports: [{ containerPort: 5432, name: 'pg' }] });
    rig.pod('db-0', { app: 'db' }, { owner: sts as never, ports: [{ containerPort: 5432, name: 'pg' }] });
    const db = rig.forward({ kind: 'StatefulSet', namespace: 'shop', name: 'db', port: 'pg', localPort: 0 });
    await db.start();
    assert.deepEqual([db.status.pod, db.status.podPort], ['db-0', 5432]);
    assert.equal((await get(db.status.localPort)).body, 'db-0\n');
  });

  it('S04 no running pod: a connection waits (bounded), then is refused with a message; one that waits less is served', async () => {
    rig = await StreamsRig.start();
    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 8080 }]);
    rig.pod('web-1', { app: 'web' }, { ready: false, phase: 'Pending' });
    const f = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 }, { waitForPodMs: 1500 });
    await f.start();
    assert.equal(f.status.phase, 'waiting');
    assert.match(f.status.reason ?? '', /no running pod of svc\/web 80/);
    const refused = await get(f.status.localPort);
    assert.equal(refused.status, 503);
    assert.match(refused.body, /no running pod of svc\/web 80 within 2 s: connection refused/);
    assert.equal(f.status.refused, 1);
    const waiting = get(f.status.localPort);
    await until(() => f.status.open === 1, () => 'the second connection waits');
    rig.setReady('web-1', true);
    assert.deepEqual(await waiting, { status: 200, body: 'web-1\n' });
    assert.equal(f.status.phase, 'ready');
  });

  it('S07 a forbidden pods/portforward reads as the server\'s words and leaves nothing bound; so do the other bad inputs', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    rig.service('headless', undefined, [{ port: 80 }]);
    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 8080 }]);
    // May read pods and services, not their subresources (RBAC's `*` would cover pods/portforward too).
    rig.server.access.setRules([{ verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['pods', 'services', 'endpointslices'] }]);
    const before = rig.manager.adHocWatchCount;
    const forbidden = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await assert.rejects(forbidden.start(), /the server refuses to forward ports of pod web-1: pods "web-1" is forbidden: User "kube-watch-test" cannot get resource "pods\/portforward"/);
    assert.deepEqual(forbidden.resources, { listeners: 0, streams: 0, sockets: 0, timers: 0, watches: 0 });
    rig.server.access.allowAll();
    await assert.rejects(rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 9999, localPort: 0 }).start(), /^Error: pod web-1 declares no port 9999 \(its ports: 8080\/http\)$/);
    await assert.rejects(rig.forward({ kind: 'Service', namespace: 'shop', name: 'headless', port: 80, localPort: 0 }).start(), /Service shop\/headless has no selector/);
    await assert.rejects(rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 81, localPort: 0 }).start(), /Service shop\/web has no port 81 \(its ports: 80\)/);
    await assert.rejects(rig.forward({ kind: 'Pod', namespace: 'shop', name: 'nope', port: 80, localPort: 0 }).start(), /Pod shop\/nope not found/);
    const holder = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await holder.start();
    await assert.rejects(rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: holder.status.localPort, exactLocalPort: true }).start(), new RegExp(`local port 127.0.0.1:${holder.status.localPort} is in use`));
    const taken = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: holder.status.localPort });
    await taken.start();
    assert.equal(taken.chosenInstead, true);
    assert.notEqual(taken.status.localPort, holder.status.localPort);
    await holder.stop();
    await taken.stop();
    await until(() => rig.manager.adHocWatchCount === before, () => `ad-hoc watches left: ${rig.manager.adHocWatchCount}`);
  });
});
