import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { LiveDescription, targetOf, type DescribeTarget, type DescriptionOptions } from '../../src/describe';
import { staleBanner } from '../../src/ui/staleness';
import { WatchTreeModel } from '../../src/ui/tree/watch-tree-model';
import { ENDPOINT_SLICES, ENDPOINTS, EVENTS_V1, FakeApiServer } from '../support/apiserver';
import { EndpointSliceController } from '../../scripts/sandbox/endpoint-slice-controller';
import { until } from '../support/until';

const SLICES = 'endpointslices.discovery.k8s.io';

/**
 * A Service's description follows its EndpointSlices (the sandbox's EndpointSlice controller
 * keeping them current with the Pods), or its Endpoints where the server has no slices; and
 * every description's stale banner reads as the YAML document's. Real stack: a WatchManager on
 * a real KubeConfig and our transport, against the local API server.
 */
describe('describe: a Service follows its EndpointSlices; one staleness language (local API server)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: FakeApiServer;
  let manager: WatchManager;
  let controller: EndpointSliceController | undefined;
  const open: LiveDescription[] = [];

  async function start(opts: { slices: boolean; endpoints?: boolean; resources?: string[] }): Promise<void> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-describe-svc-'));
    server = await FakeApiServer.start({ token: 't' });
    if (opts.slices) server.defineResource(ENDPOINT_SLICES);
    if (opts.endpoints) server.defineResource(ENDPOINTS);
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'ctx', token: 't' });
    manager = new WatchManager({ contexts: [], resources: opts.resources ?? ['services'], namespaces: [], kubeconfigPath: kubeconfig }, { clock: systemClock });
    await manager.start();
  }

  afterEach(async () => {
    for (const d of open.splice(0)) d.dispose();
    controller?.stop();
    controller = undefined;
    await manager?.stop();
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function describeLive(target: DescribeTarget, options?: DescriptionOptions): LiveDescription {
    const d = new LiveDescription(manager, target, systemClock, () => undefined, options);
    open.push(d);
    return d;
  }

  const pod = (name: string, ip: string) =>
    server.create('pods', {
      metadata: { namespace: 'shop', name, labels: { app: 'web' } },
      spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'web:1' }] },
      status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
    });
  const service = () => server.create('services', { metadata: { namespace: 'shop', name: 'web' }, spec: { type: 'ClusterIP', clusterIP: '10.96.12.7', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } });
  const serviceTarget = (): DescribeTarget => ({ spec: '', type: manager.entries()[0].type!, kind: 'Service', apiVersion: 'v1', namespace: 'shop', name: 'web' });

  it("a Service's description links its EndpointSlice and its Endpoints line follows a Pod added to the slice", async () => {
    await start({ slices: true });
    controller = new EndpointSliceController(server);
    controller.start();
    service();
    pod('web-1', '10.244.1.7');
    await until(() => manager.entries()[0]?.state.synced, () => 'services synced');

    const d = describeLive(serviceTarget());
    const first = await until(() => /^Endpoints: +10\.244\.1\.7:8080$/m.test(d.render().text) && d.render(), () => d.render().text);
    const sliceName = server.list(SLICES, 'shop')[0]?.metadata.name;
    assert.ok(sliceName?.startsWith('web-'), 'the controller named the slice after its Service');
    assert.match(first.text, new RegExp(`^EndpointSlices: +${sliceName}$`, 'm'));
    const link = first.links.find((l) => l.target.kind === 'EndpointSlice');
    assert.deepEqual(link?.target, { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', namespace: 'shop', name: sliceName });
    const sliceWatch = server.requests.find((r) => r.resource === SLICES && (r.verb === 'watch' || r.verb === 'list'));
    assert.equal(sliceWatch?.query.labelSelector, 'kubernetes.io/service-name=web', 'the slices are asked for by their Service label');
    assert.equal(sliceWatch?.namespace, 'shop');
    assert.equal(d.usesEndpointsObject, false);

    pod('web-2', '10.244.1.8');
    await until(() => /^Endpoints: +10\.244\.1\.7:8080,10\.244\.1\.8:8080$/m.test(d.render().text), () => d.render().text);

    // The link opens the slice's own description (its type resolved through discovery).
    const s = describeLive(targetOf(link!.target, ''));
    const sliceText = await until(() => /TargetRef: +Pod\/web-2$/m.test(s.render().text) && s.render().text, () => s.render().text);
    assert.match(sliceText, /^AddressType: +IPv4$/m);
    assert.match(sliceText, /^ {2}- Addresses: +10\.244\.1\.7\n {4}Conditions:\n {6}Ready: +true\n {4}Hostname: +<unset>\n {4}TargetRef: +Pod\/web-1\n {4}NodeName: +node-1\n {4}Zone: +<unset>$/m);

    server.delete('pods', 'shop', 'web-1');
    await until(() => /^Endpoints: +10\.244\.1\.8:8080$/m.test(d.render().text), () => d.render().text);

    s.dispose();
    d.dispose();
    assert.equal(manager.adHocWatchCount, 0, 'closing the descriptions stops the slice watches');
    await until(() => server.openWatches(SLICES) === 0, () => `open slice watches: ${server.openWatches(SLICES)}`);
  });

  it('where the server does not serve discovery.k8s.io/v1, the Endpoints line comes from the core Endpoints object', async () => {
    await start({ slices: false, endpoints: true });
    service();
    server.create('endpoints', { metadata: { namespace: 'shop', name: 'web' }, subsets: [{ addresses: [{ ip: '10.244.1.7' }], ports: [{ port: 8080, protocol: 'TCP' }] }] });
    await until(() => manager.entries()[0]?.state.synced, () => 'services synced');
    const d = describeLive(serviceTarget());
    const text = await until(() => /^Endpoints: +10\.244\.1\.7:8080$/m.test(d.render().text) && d.render(), () => d.render().text);
    assert.equal(d.usesEndpointsObject, true);
    assert.doesNotMatch(text.text, /EndpointSlices|Stale/);
    assert.deepEqual(text.links.find((l) => l.target.kind === 'Endpoints')?.target, { apiVersion: 'v1', kind: 'Endpoints', namespace: 'shop', name: 'web' });
    server.update('endpoints', { metadata: { namespace: 'shop', name: 'web' }, subsets: [{ addresses: [{ ip: '10.244.1.7' }, { ip: '10.244.1.9' }], ports: [{ port: 8080, protocol: 'TCP' }] }] });
    await until(() => /^Endpoints: +10\.244\.1\.7:8080,10\.244\.1\.9:8080$/m.test(d.render().text), () => d.render().text);
    assert.equal(d.runningWatches, 2, 'the Events and the Endpoints; the slice watch is gone');
  });

  it('where EndpointSlices are refused (403), the Endpoints object too', async () => {
    await start({ slices: true, endpoints: true });
    server.injectFault(
      { type: 'status', code: 403, reason: 'Forbidden', message: 'endpointslices.discovery.k8s.io is forbidden: User "viewer" cannot list resource "endpointslices" in API group "discovery.k8s.io" in the namespace "shop"' },
      { resource: SLICES, times: Infinity },
    );
    service();
    server.create('endpoints', { metadata: { namespace: 'shop', name: 'web' }, subsets: [] });
    await until(() => manager.entries()[0]?.state.synced, () => 'services synced');
    const d = describeLive(serviceTarget());
    await until(() => d.usesEndpointsObject && /^Endpoints: +<none>$/m.test(d.render().text), () => d.render().text);
    assert.doesNotMatch(d.render().text, /Stale|forbidden/, 'the fallback is not an outage');
  });

  it("the banner reads exactly as the YAML document's for the same outage, and names a watch of its own that is down", async () => {
    await start({ slices: false, resources: ['pods'] });
    server.create('pods', { metadata: { namespace: 'shop', name: 'web-1' }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' } });
    const model = new WatchTreeModel(manager, { throttleMs: 0 });
    try {
      await until(() => manager.entries()[0]?.state.synced, () => 'pods synced');
      const entryId = manager.entries()[0].id;
      const target: DescribeTarget = { spec: '', type: manager.entries()[0].type!, kind: 'Pod', apiVersion: 'v1', namespace: 'shop', name: 'web-1' };
      const wired = describeLive(target, { stalenessOf: (id) => model.stalenessOf(id) });
      const own = describeLive(target);
      await until(() => wired.runningWatches === 1 && own.runningWatches === 1 && server.openWatches('events') === 2, () => `events watches ${server.openWatches('events')}`);
      assert.doesNotMatch(wired.render().text, /Stale/);

      // Only the Events are refused (both APIs): the object is live, the banner names the Events' watch.
      server.defineResource(EVENTS_V1);
      const refusals = ['events', 'events.events.k8s.io'].map((resource) =>
        server.injectFault({ type: 'status', code: 403, reason: 'Forbidden', message: `events is forbidden: User "viewer" cannot list resource "events" in the namespace "shop"` }, { resource, times: Infinity }),
      );
      server.dropWatches('end', 'events');
      const eventsLine = await until(() => /forbidden/.test(wired.render().text.split('\n')[0]) && wired.render().text.split('\n')[0], () => wired.render().text);
      assert.match(eventsLine, /^⚠ Stale for \d+ s \(since [\d-]+ [\d:]+ UTC\): the watch of the Events of Pod web-1 is forbidden: events is forbidden: .*\. This is the last state seen, not the live object\.$/);
      for (const r of refusals) r.remove();
      await manager.restartAll('test: the refusal is lifted'); // a refused watch waits long before it tries again
      await until(() => !/Stale/.test(wired.render().text), () => wired.render().text);

      // The server goes away: the object's watch is down; its line is the YAML document's, word for word.
      await server.goDown();
      const same = (d: LiveDescription) => {
        const expected = staleBanner(model.stalenessOf(entryId), systemClock.now());
        const line = d.render().text.split('\n')[0];
        return expected !== undefined && line === expected && line;
      };
      const line = await until(() => same(wired), () => `${wired.render().text.split('\n')[0]}\nvs\n${staleBanner(model.stalenessOf(entryId), systemClock.now())}`);
      assert.match(line, /^⚠ Stale for \d+ s \(since .*\): the watch is (unreachable|reconnecting).*This is the last state seen, not the live object\.$/);
      await until(() => same(own), () => `${own.render().text.split('\n')[0]}\nvs\n${staleBanner(model.stalenessOf(entryId), systemClock.now())}`);
      assert.equal(wired.render().text.split('\n').filter((l) => l.startsWith('⚠')).length, 1, 'one line: the whole description is the last state seen');

      await server.comeUp();
      await until(() => !/Stale/.test(wired.render().text) && !/Stale/.test(own.render().text), () => wired.render().text);
    } finally {
      model.dispose();
    }
  });
});
