import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { EVENTS_TYPE, LiveDescription, targetOf, type DescribeTarget } from '../../src/describe';
import { FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';


/**
 * Live descriptions through the real stack: a WatchManager on a real KubeConfig and our
 * transport, against the local API server. The object comes from the configured watch when
 * there is one, else from a single-object watch; its events from a watch by involvedObject.uid.
 */
describe('describe: live description (manager, ad-hoc watches, local API server)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: FakeApiServer;
  let manager: WatchManager;
  const open: LiveDescription[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-describe-'));
    server = await FakeApiServer.start({ token: 't' });
    server.defineResource({ group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] });
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'ctx', token: 't' });
    manager = new WatchManager({ contexts: [], resources: ['pods'], namespaces: [], kubeconfigPath: kubeconfig }, { clock: systemClock });
    await manager.start();
  });

  afterEach(async () => {
    for (const d of open.splice(0)) d.dispose();
    await manager.stop();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function describeLive(target: DescribeTarget): { d: LiveDescription; renders: () => number } {
    let count = 0;
    const d = new LiveDescription(manager, target, systemClock, () => count++);
    open.push(d);
    return { d, renders: () => count };
  }

  function event(uid: string, name: string, reason: string, message: string) {
    return server.create('events', {
      metadata: { namespace: 'shop', generateName: `${name}.` },
      involvedObject: { kind: 'Pod', apiVersion: 'v1', namespace: 'shop', name, uid },
      reason,
      message,
      type: 'Normal',
      count: 1,
      source: { component: 'kubelet' },
      firstTimestamp: new Date().toISOString(),
      lastTimestamp: new Date().toISOString(),
    });
  }

  it("a Pod's description follows its events (only its own, by uid) and the Pod itself; closing it stops its watches", async () => {
    const rs = server.create('replicasets.apps', { metadata: { namespace: 'shop', name: 'web-7d9f8b6c4', labels: { app: 'web' } }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } }, status: { replicas: 1 } });
    const pod = server.create('pods', {
      metadata: { namespace: 'shop', name: 'web-7d9f8b6c4-2xkqp', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8b6c4', uid: rs.metadata.uid, controller: true }] },
      spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'web:1' }] },
      status: { phase: 'Running' },
    });
    const other = server.create('pods', { metadata: { namespace: 'shop', name: 'other' }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' } });
    event(pod.metadata.uid!, pod.metadata.name!, 'Scheduled', 'Successfully assigned shop/web-7d9f8b6c4-2xkqp to node-1');
    event(other.metadata.uid!, 'other', 'Pulled', 'not about the described pod');
    await until(() => manager.entries()[0]?.state.synced, () => 'pods synced');

    const { d, renders } = describeLive({ spec: '', type: manager.entries()[0].type!, kind: 'Pod', apiVersion: 'v1', namespace: 'shop', name: 'web-7d9f8b6c4-2xkqp' });
    const first = await until(() => /Scheduled/.test(d.render().text) && d.render(), () => d.render().text);
    assert.match(first.text, /^Name: +web-7d9f8b6c4-2xkqp$/m);
    assert.match(first.text, /^Controlled By: +ReplicaSet\/web-7d9f8b6c4$/m);
    assert.doesNotMatch(first.text, /not about the described pod/);
    assert.equal(d.runningWatches, 1, 'the object comes from the configured pods watch: only the events watch is its own');
    assert.equal(manager.adHocWatchCount, 1);

    const before = renders();
    event(pod.metadata.uid!, pod.metadata.name!, 'Started', 'Started container web');
    const followed = await until(() => renders() > before && /Started container web/.test(d.render().text) && d.render().text, () => d.render().text);
    const eventLines = followed.split('\n').slice(followed.split('\n').indexOf('Events:') + 3);
    assert.match(eventLines[0], /Scheduled/, 'oldest first');
    assert.match(eventLines[1], /Started/, 'newest last');

    server.update('pods', { ...server.get('pods', 'shop', 'web-7d9f8b6c4-2xkqp')!, status: { phase: 'Failed', reason: 'Evicted' } });
    await until(() => /^Status: +Failed$/m.test(d.render().text), () => d.render().text);

    // The owner link: ReplicaSets are not watched, so its description runs a single-object watch.
    const link = d.render().links.find((l) => l.target.kind === 'ReplicaSet');
    assert.ok(link);
    const { d: owner } = describeLive(targetOf(link.target, ''));
    const ownerText = await until(() => /^Name: +web-7d9f8b6c4$/m.test(owner.render().text) && owner.render().text, () => owner.render().text);
    assert.match(ownerText, /^Namespace: +shop$/m);
    await until(() => owner.runningWatches === 2, () => `owner watches ${owner.runningWatches}`);
    assert.equal(manager.adHocWatchCount, 3);

    owner.dispose();
    d.dispose();
    assert.equal(manager.adHocWatchCount, 0, 'closing the descriptions stops every watch they started');
    await until(() => server.openWatches('events') === 0 && server.openWatches('replicasets.apps') === 0, () => `open watches: events ${server.openWatches('events')}, replicasets ${server.openWatches('replicasets.apps')}`);
  });

  it('a deleted object keeps its last state under a banner; stopping the manager ends the watches and says so', async () => {
    server.create('replicasets.apps', { metadata: { namespace: 'shop', name: 'api-5c6b7f9d8' }, spec: { replicas: 1 } });
    const { d } = describeLive(targetOf({ apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: 'api-5c6b7f9d8' }, ''));
    await until(() => /^Name: +api-5c6b7f9d8$/m.test(d.render().text), () => d.render().text);
    server.delete('replicasets.apps', 'shop', 'api-5c6b7f9d8');
    await until(() => /^Deleted at .*: the last known state follows\.$/m.test(d.render().text), () => d.render().text);
    assert.match(d.render().text, /^Name: +api-5c6b7f9d8$/m);
    await manager.stop();
    assert.equal(manager.adHocWatchCount, 0);
    // The shared staleness language, after the same 1 s grace as the tree and the YAML documents.
    await until(() => /^⚠ Stale for \d+ s \(since [\d-]+ [\d:]+ UTC\): the watch is stopped: watching stopped\. This is the last state seen, not the live object\.$/m.test(d.render().text), () => d.render().text);
  });

  it('Restart All Watches restarts the description\'s own watches too, which keep following; a resumed manager gets them back', async () => {
    const pod = server.create('pods', { metadata: { namespace: 'shop', name: 'api-1' }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' } });
    await until(() => manager.entries()[0]?.state.synced, () => 'pods synced');
    const { d } = describeLive({ spec: '', type: manager.entries()[0].type!, kind: 'Pod', apiVersion: 'v1', namespace: 'shop', name: 'api-1' });
    await until(() => d.runningWatches === 1 && server.openWatches('events') === 1, () => `watches ${d.runningWatches}, open event watches ${server.openWatches('events')}`);
    // The manager's ad-hoc watches restart with the configured ones (a relist each).
    const probe = manager.watchAdHoc({ spec: '', type: EVENTS_TYPE, namespace: 'shop', fieldSelector: `involvedObject.uid=${pod.metadata.uid}`, purpose: 'test' });
    await until(() => probe.informer?.state.synced, () => 'the probe synced');
    const listsBefore = probe.informer!.stats.lists + probe.informer!.stats.relists;
    await manager.restartAll('test');
    await until(() => probe.informer!.stats.lists + probe.informer!.stats.relists > listsBefore, () => JSON.stringify(probe.informer!.stats));
    await probe.dispose();
    event(pod.metadata.uid!, 'api-1', 'Pulled', 'after the restart');
    await until(() => /after the restart/.test(d.render().text), () => d.render().text);
    assert.equal(manager.adHocWatchCount, 1);

    await manager.stop();
    assert.equal(manager.adHocWatchCount, 0, 'stopping the manager ends the ad-hoc watches');
    await manager.start();
    await until(() => manager.adHocWatchCount === 1 && server.openWatches('events') === 1, () => `ad-hoc ${manager.adHocWatchCount}, open event watches ${server.openWatches('events')}`);
    event(pod.metadata.uid!, 'api-1', 'Started', 'after the resume');
    await until(() => /after the resume/.test(d.render().text) && !/STALE/.test(d.render().text), () => d.render().text);
  });
});
