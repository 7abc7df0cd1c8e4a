import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { systemClock } from '../../src/base';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import type { KubeObject } from '../../src/informer';
import { WatchManager } from '../../src/manager';
import { PortForward, resolveTarget, usablePods } from '../../src/port-forward';
import { streamRefusalWords, WriteJournal } from '../../src/actions';
import { ShellSession, StreamRefused } from '../../src/shell';
import { RowActions, targetOfRow } from '../../src/ui/actions';
import { PROTOCOLS, REAL_BOUND_MS, until, useControlPlane } from './support';

/**
 * Port-forward and exec on a real 1.34 server, as far as one without a kubelet goes: the API
 * server authorizes the upgrade before it would proxy it to the kubelet, so RBAC's refusal of
 * `pods/portforward` and `pods/exec` is real here; what lies behind it (a stream to a pod) is
 * tested on the local API server (test/port-forward). The pod's status is written by the test
 * (Running and Ready), since no kubelet does.
 * W14's choice of pod is read here from real pods whose status the test writes through `/status`;
 * the forward to the chosen pod is on the local API server (test/port-forward/truthful.test.ts).
 */
describe('[real] port-forward and exec refused by RBAC (kube-apiserver 1.34, no kubelet)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  let manager: WatchManager | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('S07 [real] a user who may read pods but not their portforward or exec subresources: the forward fails with the server\'s words before anything is bound; exec is refused the same way; a pod with no node reads as the server says', async () => {
    const ns = await plane().setup.namespace();
    // Pods only: `resources: ['*']` would match their subresources too (RBAC's wildcard does).
    const role = `pods-reader-${ns}`;
    await plane().admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: role }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] });
    await plane().setup.grant({ user: 'limited' }, { namespace: ns, clusterRole: role });
    await plane().admin.post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'web:1', ports: [{ containerPort: 8080, name: 'http' }] }] } });
    const pod = await plane().admin.get(`/api/v1/namespaces/${ns}/pods/web-1`);
    await plane().admin.put(`/api/v1/namespaces/${ns}/pods/web-1/status`, { ...pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-streams-'));
    const start = async (user: 'limited' | 'admin') => {
      await manager?.stop();
      const kubeconfigPath = path.join(dir!, `config-${user}`);
      fs.writeFileSync(kubeconfigPath, plane().kubeconfig(user));
      manager = new WatchManager({ contexts: [], resources: ['pods'], namespaces: [ns], kubeconfigPath }, { clock: systemClock });
      await manager.start();
      await until(() => manager!.entries().some((e) => e.informer?.state.synced), 'the pods watch', REAL_BOUND_MS);
      const entry = manager.entries()[0];
      const spec = manager.contextSpecOf(entry.id)!;
      const m = manager;
      return { transport: m.transportOf(entry.id)!, watch: (request: Parameters<WatchManager['watchAdHoc']>[0] extends infer R ? Omit<R & object, 'spec'> : never) => m.watchAdHoc({ spec, ...(request as object) } as Parameters<WatchManager['watchAdHoc']>[0]) };
    };

    const reader = await start('limited');
    const watchesBefore = manager!.adHocWatchCount;
    const forward = new PortForward({ kind: 'Pod', namespace: ns, name: 'web-1', port: 8080, localPort: 0 }, { transport: reader.transport, clock: systemClock, watch: reader.watch as never });
    await assert.rejects(forward.start(), (err: Error) => {
      assert.match(err.message, new RegExp(`^the server refuses to forward ports of pod web-1: pods "web-1" is forbidden: User "limited" cannot get resource "pods/portforward" in API group "" in the namespace "${ns}"$`));
      return true;
    });
    assert.deepEqual(forward.resources, { listeners: 0, streams: 0, sockets: 0, timers: 0, watches: 0 });
    await until(() => manager!.adHocWatchCount === watchesBefore, 'no ad-hoc watch left', REAL_BOUND_MS);
    const shell = new ShellSession({ namespace: ns, pod: 'web-1' }, { transport: reader.transport, clock: systemClock, tty: true });
    await assert.rejects(shell.start(), (err: Error) => {
      assert.ok(err instanceof StreamRefused, `a refusal, final: ${err.name}`);
      assert.equal(err.namespace, ns);
      assert.match(err.message, new RegExp(`^pods "web-1" is forbidden: User "limited" cannot get resource "pods/exec"`));
      assert.match(streamRefusalWords('shell', err.namespace, err.message), new RegExp(`^Not allowed: user "limited" may not run commands in pods \\(pods/exec\\) in namespace ${ns}\\. .*trying again will not help\\. Whoever administers RBAC in namespace ${ns}`));
      return true;
    });

    const admin = await start('admin');
    const mayForward = new PortForward({ kind: 'Pod', namespace: ns, name: 'web-1', port: 8080, localPort: 0 }, { transport: admin.transport, clock: systemClock, watch: admin.watch as never });
    await assert.rejects(mayForward.start(), /^Error: cannot forward to pod web-1 port 8080: .*(host|node)/);
    assert.deepEqual(mayForward.resources, { listeners: 0, streams: 0, sockets: 0, timers: 0, watches: 0 });
  });

  it('U07 [real] a pod row offers Open Shell, Run Command and Port Forward only to a user the access rules allow (create and get on pods/exec, pods/portforward), as the write actions are offered', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    const reader = `pods-reader-u07-${ns}`;
    const streams = `pods-streams-u07-${ns}`;
    await p.admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: reader }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] });
    await p.setup.grant({ user: 'limited' }, { namespace: ns, clusterRole: reader });
    await p.admin.post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1' }, spec: { containers: [{ name: 'app', image: 'web:1' }] } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-streams-'));
    const kubeconfigPath = path.join(dir, 'config');
    fs.writeFileSync(kubeconfigPath, p.kubeconfig('limited'));
    const m = (manager = new WatchManager({ contexts: [], resources: ['pods'], namespaces: [ns], kubeconfigPath }, { clock: systemClock }));
    await m.start();
    await until(() => m.entries().some((e) => e.informer?.get(ns, 'web-1')), 'the pod in the cache', REAL_BOUND_MS);
    const journal = new WriteJournal(m);
    const rows = new RowActions(m, journal);
    try {
      const entryId = m.entries()[0].id;
      const row = { entryId, namespace: ns, name: 'web-1' };
      const offered = () => rows.offeredStreams(entryId, targetOfRow(m, row)!);
      const tokens = () => rows.decorate({ ...row, object: targetOfRow(m, row)!.object }, { label: 'web-1', contextValue: 'object.pod', collapsible: 'none' }).contextValue;
      // Asked on first sight; the answers come back as refusals: nothing offered.
      offered();
      // Drawn again on each answer, as the tree draws it: a denial for all namespaces asks the namespace.
      await until(() => (offered(), m.accessReviewsOf(entryId)!.peek({ verb: 'create', group: '', resource: 'pods', subresource: 'exec', namespace: ns }) !== undefined && m.accessReviewsOf(entryId)!.peek({ verb: 'get', group: '', resource: 'pods', subresource: 'portforward', namespace: ns }) !== undefined), 'the access answers', REAL_BOUND_MS);
      assert.deepEqual(offered(), []);
      assert.equal(tokens(), 'object.pod', 'no @shell or @forward token: the menus hide Open Shell, Run Command and Port Forward');

      await p.admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: streams }, rules: [{ apiGroups: [''], resources: ['pods/exec', 'pods/portforward'], verbs: ['create', 'get'] }] });
      await p.setup.grant({ user: 'limited' }, { namespace: ns, clusterRole: streams });
      m.accessReviewsOf(entryId)!.invalidate();
      await until(() => offered().length === 2, () => `both streams offered once granted: ${offered().join(', ')}`, REAL_BOUND_MS);
      assert.deepEqual(offered(), ['forward', 'shell']);
      assert.equal(tokens(), 'object.pod @forward @shell');
    } finally {
      rows.dispose();
      journal.dispose();
    }
  });

  for (const { label, http2 } of PROTOCOLS) {
    it(`W14 [real] ${label}: a Service's pods as the real server writes their status: a Ready one first, then one Running but not Ready (a failing readiness probe, still usable as kubectl allows), never a Pending one`, async () => {
      const ns = await plane().setup.namespace();
      const admin = plane().admin;
      const podPath = (name: string) => `/api/v1/namespaces/${ns}/pods/${name}`;
      const createPod = async (name: string, status: object | undefined) => {
        await admin.post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'web:1', ports: [{ containerPort: 8080, name: 'http' }] }] } });
        if (status) await admin.put(`${podPath(name)}/status`, { ...(await admin.get(podPath(name))), status });
      };
      const running = (ready: boolean) => ({ phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', ...(ready ? {} : { reason: 'ContainersNotReady', message: 'containers with unready status: [app]' }) }], containerStatuses: [{ name: 'app', ready, restartCount: 0, image: 'web:1', imageID: '', started: true, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] });
      // Created in this order, so the not-ready one is the oldest: only readiness puts the Ready one first.
      await createPod('web-probe-failing', running(false));
      await createPod('web-ready', running(true));
      await createPod('web-pending', undefined);
      await admin.post(`/api/v1/namespaces/${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] } });
      const kc = new KubeConfig();
      kc.loadFromString(plane().kubeconfig('admin'));
      const transport = new KubeConfigTransport(kc, { http2 });
      try {
        const spec = { kind: 'Service' as const, namespace: ns, name: 'web', port: 80 };
        const target = resolveTarget(spec, await transport.getJson<KubeObject>(`/api/v1/namespaces/${ns}/services/web`, {}, AbortSignal.timeout(REAL_BOUND_MS)));
        assert.ok(typeof target !== 'string', String(target));
        const choice = async () => {
          const list = await transport.getJson<{ items: KubeObject[] }>(`/api/v1/namespaces/${ns}/pods`, { labelSelector: 'app=web' }, AbortSignal.timeout(REAL_BOUND_MS));
          return usablePods(target, { pods: list.items, slices: [] }).map((p) => `${p.pod.metadata.name}${p.ready ? '' : ' (not Ready)'}`);
        };
        assert.deepEqual(await choice(), ['web-ready', 'web-probe-failing (not Ready)']);
        // The Ready pod's probe fails too: both are still usable, the older first; the Pending one never.
        await admin.put(`${podPath('web-ready')}/status`, { ...(await admin.get(podPath('web-ready'))), status: running(false) });
        assert.deepEqual(await choice(), ['web-probe-failing (not Ready)', 'web-ready (not Ready)']);
      } finally {
        transport.dispose();
      }
    });
  }
});
