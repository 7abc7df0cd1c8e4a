import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { streamRefusalWords, WriteJournal } from '../../src/actions';
import { systemClock } from '../../src/base';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { DebugSession, DebugTargetMoved } from '../../src/debug';
import type { KubeObject } from '../../src/informer';
import { OriginTransport, WatchManager } from '../../src/manager';
import { StreamRefused } from '../../src/shell';
import { RowActions, targetOfRow } from '../../src/ui/actions';
import { PROTOCOLS, REAL_BOUND_MS, REAL_INFORMER_DEFAULTS, until, useControlPlane, type Protocol } from './support';

type EphemeralJson = { name: string; image: string; targetContainerName?: string; stdin?: boolean; tty?: boolean; imagePullPolicy?: string; terminationMessagePolicy?: string; terminationMessagePath?: string; securityContext?: unknown };

/**
 * Debug Pod… on a real kube-apiserver 1.34 (issue 32, X15 and X16), as far as one without a
 * kubelet goes: the `ephemeralcontainers` patch our code sends lands in the pod's spec with the
 * server's defaults, and the session waits for a kubelet that never comes (the container never
 * starts; its attach is tested on the local API server, test/debug); RBAC's refusal of
 * `pods/ephemeralcontainers` is real here, and so is the uid precondition.
 */
describe('[real] Debug Pod: ephemeral debug containers (kube-apiserver 1.34, no kubelet)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function managerAs(user: 'admin' | 'limited', protocol: Protocol, ns: string): Promise<WatchManager> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-debug-'));
    const file = path.join(dir, 'config');
    fs.writeFileSync(file, plane().kubeconfig(user));
    const registry = new ClusterRegistry(false);
    const manager = new WatchManager(
      { contexts: [], resources: ['pods'], namespaces: [ns], kubeconfigPath: file },
      { clock: systemClock, clusterRegistry: registry, transportFactory: kubeConfigTransportFactoryWith(registry, { http2: protocol === 'h2' }), informerOptions: { backoff: REAL_INFORMER_DEFAULTS.backoff } },
    );
    cleanups.push(async () => {
      await manager.stop();
      registry.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    await manager.start();
    await until(() => manager.entries().some((e) => e.informer?.get(ns, 'app-1')), 'the pod in the cache', REAL_BOUND_MS);
    return manager;
  }

  function session(manager: WatchManager, pod: KubeObject, image = 'busybox') {
    const entryId = manager.entries()[0].id;
    const spec = manager.contextSpecOf(entryId)!;
    const s = new DebugSession({
      transport: new OriginTransport(manager.originOf(entryId, pod), (o) => manager.resolveOrigin(o), `${pod.metadata.namespace}/${pod.metadata.name}`),
      clock: systemClock,
      watch: (request) => manager.watchAdHoc({ spec, ...request }),
      pod,
      request: { image, target: 'app' },
    });
    cleanups.push(() => s.dispose());
    const progress: string[] = [];
    s.onProgress((line) => progress.push(line));
    return { s, progress };
  }

  async function podIn(ns: string): Promise<KubeObject> {
    return (await plane().admin.post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app-1' }, spec: { containers: [{ name: 'app', image: 'gcr.io/distroless/static:nonroot' }] } })) as unknown as KubeObject;
  }

  for (const { protocol, label } of PROTOCOLS) {
    it(`X15 [real] ${label}: the ephemeralcontainers patch lands in the pod's spec (the server's defaults filled in), and the session waits for the kubelet, saying so, until it is closed`, async () => {
      const ns = await plane().setup.namespace();
      await podIn(ns);
      const manager = await managerAs('admin', protocol, ns);
      // The HTTP/1.1 transport may leave its protocol unset (it never negotiates h2).
      assert.equal(manager.transportOf(manager.entries()[0].id)!.protocol ?? 'http/1.1', protocol);
      const pod = manager.entries()[0].informer!.get(ns, 'app-1')!;
      const { s, progress } = session(manager, pod);
      let settled = false;
      const started = s.start().finally(() => (settled = true));
      await until(() => progress.some((l) => /to start \(not started by the kubelet yet\)…$/.test(l)), () => `waiting for the kubelet: ${progress.join(' | ')}`, REAL_BOUND_MS);
      const name = s.container!;
      const stored = (await plane().admin.get(`/api/v1/namespaces/${ns}/pods/app-1`)) as { spec: { ephemeralContainers?: EphemeralJson[] } };
      assert.deepEqual(stored.spec.ephemeralContainers, [
        { name, image: 'busybox', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always', securityContext: { capabilities: { add: ['SYS_PTRACE'] } }, stdin: true, tty: true, targetContainerName: 'app' },
      ]);
      // The watch shows the spec change; no kubelet ever starts it: still waiting, nothing attached.
      await until(() => (manager.entries()[0].informer!.get(ns, 'app-1')!.spec as { ephemeralContainers?: unknown[] }).ephemeralContainers?.length === 1, 'the watch shows the ephemeral container', REAL_BOUND_MS);
      assert.equal(settled, false);
      assert.equal(s.open, false);
      s.dispose();
      await started;
      await until(() => manager.adHocWatchCount === 0, 'the pod watch of the session stopped', REAL_BOUND_MS);
      // The second one keeps the first ($setElementOrder), and an existing one cannot be removed: the server's words.
      const again = session(manager, manager.entries()[0].informer!.get(ns, 'app-1')!, 'nicolaka/netshoot:v0.13');
      void again.s.start().catch(() => undefined);
      await until(() => again.progress.some((l) => /not started by the kubelet yet/.test(l)), () => `the second container: ${again.progress.join(' | ')}`, REAL_BOUND_MS);
      const both = (await plane().admin.get(`/api/v1/namespaces/${ns}/pods/app-1`)) as { spec: { ephemeralContainers: EphemeralJson[] } };
      assert.deepEqual(both.spec.ephemeralContainers.map((c) => [c.name, c.image, c.imagePullPolicy]), [[name, 'busybox', 'Always'], [again.s.container, 'nicolaka/netshoot:v0.13', 'IfNotPresent']]);
    });
  }

  for (const { protocol, label } of PROTOCOLS) {
    it(`X16 [real] ${label}: a user who may read pods but not patch pods/ephemeralcontainers is not offered Debug Pod and is refused in words, with nothing added; a pod re-created under its name (another uid) is refused`, async () => {
      const ns = await plane().setup.namespace();
      const role = `pods-reader-${ns}`;
      await plane().admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: role }, rules: [{ apiGroups: [''], resources: ['pods', 'pods/attach'], verbs: ['get', 'list', 'watch', 'create'] }] });
      await plane().setup.grant({ user: 'limited' }, { namespace: ns, clusterRole: role });
      cleanups.push(() => plane().admin.delete(`/apis/rbac.authorization.k8s.io/v1/clusterroles/${role}`).then(() => undefined));
      await podIn(ns);
      const manager = await managerAs('limited', protocol, ns);
      const entryId = manager.entries()[0].id;
      const journal = new WriteJournal(manager);
      const rows = new RowActions(manager, journal);
      cleanups.push(() => {
        rows.dispose();
        journal.dispose();
      });
      const offered = () => rows.offeredStreams(entryId, targetOfRow(manager, { entryId, namespace: ns, name: 'app-1' })!);
      offered();
      // Drawn again on each answer, as the tree draws it: a denial for all namespaces asks the namespace.
      await until(() => (offered(), manager.accessReviewsOf(entryId)!.peek({ verb: 'patch', group: '', resource: 'pods', subresource: 'ephemeralcontainers', namespace: ns }) !== undefined), 'the access answer', REAL_BOUND_MS);
      assert.ok(!offered().includes('debug'), `Debug Pod not offered: ${offered().join(', ')}`);

      const pod = manager.entries()[0].informer!.get(ns, 'app-1')!;
      const err = await session(manager, pod).s.start().then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof StreamRefused, String(err));
      assert.equal(
        streamRefusalWords('debug', ns, err.serverMessage),
        `Not allowed: user "limited" may not add debug containers to pods (pods/ephemeralcontainers) in namespace ${ns}. The cluster's access rules (RBAC) refused it; trying again will not help. Whoever administers RBAC in namespace ${ns} (a Role and RoleBinding granting patch on pods/ephemeralcontainers) can allow it.`,
      );
      const stored = (await plane().admin.get(`/api/v1/namespaces/${ns}/pods/app-1`)) as { spec: { ephemeralContainers?: unknown[] } };
      assert.equal(stored.spec.ephemeralContainers, undefined, 'nothing added');

      // As admin: the pod is deleted and created again under its name; the old pod's uid refuses the patch.
      const admin = await managerAs('admin', protocol, ns);
      const old = admin.entries()[0].informer!.get(ns, 'app-1')!;
      await plane().admin.delete(`/api/v1/namespaces/${ns}/pods/app-1`, { gracePeriodSeconds: 0 });
      const fresh = await podIn(ns);
      assert.notEqual(fresh.metadata.uid, old.metadata.uid);
      const moved = await session(admin, old).s.start().then(() => undefined, (e: unknown) => e);
      assert.ok(moved instanceof DebugTargetMoved, String(moved));
      assert.match(moved.message, new RegExp(`^Pod ${ns}/app-1 is not the pod you chose: it was deleted and created again under the same name \\(another uid\\)`));
      const after = (await plane().admin.get(`/api/v1/namespaces/${ns}/pods/app-1`)) as { spec: { ephemeralContainers?: unknown[] } };
      assert.equal(after.spec.ephemeralContainers, undefined, 'the new pod got nothing');
    });
  }
});
