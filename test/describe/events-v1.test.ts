import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { LiveDescription, type DescribeTarget } from '../../src/describe';
import { EVENTS_V1, FakeApiServer } from '../support/apiserver';
import { until } from '../support/until';

const EVENTS_V1_RESOURCE = 'events.events.k8s.io';

/**
 * Where core/v1 Events are refused (RBAC that grants only events.k8s.io), a description's
 * Events come from events.k8s.io/v1 with `regarding.uid=…`, printed the same way. Real stack:
 * a WatchManager, our transport, the local API server.
 */
describe('describe: Events from events.k8s.io/v1 where core/v1 Events are refused (local API server)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: FakeApiServer;
  let manager: WatchManager;
  const open: LiveDescription[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-describe-ev1-'));
    server = await FakeApiServer.start({ token: 't' });
    server.defineResource(EVENTS_V1);
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

  /** An event in the events.k8s.io/v1 shape, as a recorder of the new API writes it. */
  const eventV1 = (uid: string, name: string, reason: string, note: string, at: string) =>
    server.create(EVENTS_V1_RESOURCE, {
      metadata: { namespace: 'shop', generateName: `${name}.` },
      regarding: { kind: 'Pod', apiVersion: 'v1', namespace: 'shop', name, uid },
      reason,
      note,
      type: 'Normal',
      action: reason,
      reportingController: 'kubelet',
      reportingInstance: 'node-1',
      eventTime: at,
    });

  it('the Events come from a watch regarding.uid=…, newest last, and follow a new one', async () => {
    server.injectFault({ type: 'status', code: 403, reason: 'Forbidden', message: 'events is forbidden: User "viewer" cannot list resource "events" in API group "" in the namespace "shop"' }, { resource: 'events', times: Infinity });
    const pod = server.create('pods', { metadata: { namespace: 'shop', name: 'web-1' }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' } });
    const other = server.create('pods', { metadata: { namespace: 'shop', name: 'other' }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' } });
    eventV1(pod.metadata.uid!, 'web-1', 'Scheduled', 'Successfully assigned shop/web-1 to node-1', new Date(Date.now() - 60_000).toISOString());
    eventV1(other.metadata.uid!, 'other', 'Pulled', 'not about the described pod', new Date().toISOString());
    await until(() => manager.entries()[0]?.state.synced, () => 'pods synced');

    const target: DescribeTarget = { spec: '', type: manager.entries()[0].type!, kind: 'Pod', apiVersion: 'v1', namespace: 'shop', name: 'web-1' };
    const d = new LiveDescription(manager, target, systemClock, () => undefined);
    open.push(d);
    const text = await until(() => /Scheduled/.test(d.render().text) && d.render().text, () => d.render().text);
    assert.equal(d.usesEventsV1, true);
    assert.match(text, /^ {2}Normal +Scheduled +\d+s +kubelet +Successfully assigned shop\/web-1 to node-1$/m, 'From is the reportingController, the message the note');
    assert.doesNotMatch(text, /not about the described pod/);
    assert.doesNotMatch(text, /Stale/, 'the switch is not an outage');
    const v1Watch = server.requests.find((r) => r.resource === EVENTS_V1_RESOURCE && (r.verb === 'list' || r.verb === 'watch' || r.verb === 'watchlist'));
    assert.equal(v1Watch?.query.fieldSelector, `regarding.uid=${pod.metadata.uid}`);
    assert.ok(server.requests.some((r) => r.resource === 'events' && r.status === 403), 'core Events were asked for first');

    eventV1(pod.metadata.uid!, 'web-1', 'Started', 'Started container c', new Date().toISOString());
    const followed = await until(() => /Started container c/.test(d.render().text) && d.render().text, () => d.render().text);
    const lines = followed.split('\n');
    const rows = lines.slice(lines.indexOf('Events:') + 3);
    assert.match(rows[0], /Scheduled/, 'oldest first');
    assert.match(rows[1], /Started/, 'newest last');
    assert.equal(d.runningWatches, 1, 'the Pod comes from the configured watch; the events.k8s.io watch is the only one of its own');
  });
});
