import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { keyOf, type TimedLifecycleEvent } from '../../src/informer';
import { WatchManager } from '../../src/manager';
import { ManagerView, identityLine } from '../manager/manager-view';
import { PROTOCOLS, REAL_BOUND_MS, REAL_INFORMER_DEFAULTS, uniqueName, until, useControlPlane, type ControlPlane, type Protocol } from './support';

/**
 * F39 on a real kube-apiserver: a CRD serving v1beta1 and v1 whose v1beta1 is then marked
 * `served: false`. A real server drops the version from discovery, ends its watches and answers
 * 404 for it; the manager, watching `widgets.v1beta1.<group>`, moves to v1 with its cache: the
 * handlers see updates (the objects as v1 shows them) and no delete.
 */
describe('[real] types whose served version moves (F39)', function () {
  this.timeout(120_000);
  const LIMITED = 'f39-limited';
  const plane = useControlPlane({ limitedNamespaces: [LIMITED] });
  const cleanups: (() => Promise<void> | void)[] = [];

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A CRD serving v1beta1 and v1 (storage), two widgets in `namespace`, and a manager watching `widgets.v1beta1.<group>` there as `user`. */
  async function watchingV1beta1(p: ControlPlane, protocol: Protocol, user: 'reader' | 'limited', namespace: string) {
    const group = `${uniqueName('f39')}.example.com`;
    await p.setup.crd({
      group,
      plural: 'widgets',
      kind: 'Widget',
      versions: [
        { name: 'v1beta1', served: true, storage: false },
        { name: 'v1', served: true, storage: true },
      ],
    });
    for (const name of ['w-1', 'w-2']) await p.admin.post(`/apis/${group}/v1/namespaces/${namespace}/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec: { size: 1 } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-f39-'));
    const kubeconfig = path.join(dir, 'config');
    fs.writeFileSync(kubeconfig, p.kubeconfig(user));
    const registry = new ClusterRegistry(false);
    const manager = new WatchManager(
      { contexts: [], resources: [`widgets.v1beta1.${group}`], namespaces: [namespace], kubeconfigPath: kubeconfig },
      {
        clock: systemClock,
        clusterRegistry: registry,
        transportFactory: kubeConfigTransportFactoryWith(registry, { http2: protocol === 'h2' }),
        informerOptions: { backoff: REAL_INFORMER_DEFAULTS.backoff },
        confirmGoneMs: 2000,
      },
    );
    cleanups.push(async () => {
      await manager.stop();
      registry.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const view = new ManagerView();
    manager.addHandler(view);
    manager.onObjectsRemoved((e) => view.removed(e));
    const deletes: string[] = [];
    manager.addHandler({ onDelete: (_id, obj) => deletes.push(keyOf(obj)) });
    const lifecycle: TimedLifecycleEvent[] = [];
    manager.onLifecycle((_id, e) => lifecycle.push(e));
    await manager.start();
    await watchingVersion(manager, 'v1beta1');
    return { group, manager, view, deletes, lifecycle };
  }

  async function watchingVersion(manager: WatchManager, version: string): Promise<void> {
    await until(
      () => {
        const [e] = manager.entries();
        return e?.type?.version === version && e.informer?.state.phase === 'watching' && e.state.synced;
      },
      () => JSON.stringify(manager.entries().map((e) => [e.label, e.type?.version, e.state.phase, e.state.reason])),
      REAL_BOUND_MS,
    );
  }

  async function serverLines(p: ControlPlane, group: string, namespace: string): Promise<string[]> {
    return (await p.admin.list(`/apis/${group}/v1/namespaces/${namespace}/widgets`)).items.map((o) => identityLine(o as Parameters<typeof identityLine>[0])).sort();
  }

  async function stopServingV1beta1(p: ControlPlane, group: string): Promise<void> {
    await p.admin.patch(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`, [{ op: 'replace', path: '/spec/versions/0/served', value: false }], 'json');
  }

  for (const { protocol, label } of PROTOCOLS) {
    it(`F39 [real] ${label}: a CRD with v1beta1 and v1, then v1beta1 served: false: the watch moves to v1 when the CRD watch sees it, with no deletion`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const { group, manager, view, deletes, lifecycle } = await watchingV1beta1(p, protocol, 'reader', ns);
      assert.deepEqual(view.lines(), await serverLines(p, group, ns));
      await stopServingV1beta1(p, group);
      await p.admin.post(`/apis/${group}/v1/namespaces/${ns}/widgets`, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w-3' }, spec: { size: 3 } });
      await watchingVersion(manager, 'v1');
      const expected = await serverLines(p, group, ns);
      await until(() => view.lines().join() === expected.join(), () => `the view ${view.lines().join(', ')}`, REAL_BOUND_MS);
      assert.deepEqual(deletes, [], 'no handler saw a delete');
      assert.deepEqual(view.removals, []);
      const moved = lifecycle.flatMap((e) => (e.type === 'restart' ? [e.reason] : []));
      assert.ok(moved.some((r) => r.startsWith(`widgets.${group} moved from v1beta1 to v1 (`)), moved.join(' | '));
      const versions = [...view.objects.values()].flatMap((m) => [...m.values()].map((o) => o.apiVersion));
      assert.deepEqual([...new Set(versions)], [`${group}/v1`], 'every object as v1 shows it');
    });

    it(`F39 [real] ${label}: where the user may not read CRDs, the 404 of the unserved v1beta1 moves the watch to v1, with no deletion`, async () => {
      const p = plane();
      const { group, manager, view, deletes, lifecycle } = await watchingV1beta1(p, protocol, 'limited', LIMITED);
      await stopServingV1beta1(p, group);
      await watchingVersion(manager, 'v1');
      const expected = await serverLines(p, group, LIMITED);
      await until(() => view.lines().join() === expected.join(), () => `the view ${view.lines().join(', ')}`, REAL_BOUND_MS);
      assert.deepEqual(deletes, []);
      assert.deepEqual(view.removals, []);
      const moved = lifecycle.flatMap((e) => (e.type === 'restart' ? [e.reason] : []));
      assert.ok(moved.includes(`widgets.${group} moved from v1beta1 to v1 (after a 404)`), moved.join(' | '));
    });
  }
});
