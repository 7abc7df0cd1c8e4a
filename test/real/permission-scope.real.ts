import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import type { TimedLifecycleEvent } from '../../src/informer';
import { WatchManager, type WatchEntry } from '../../src/manager';
import { PROTOCOLS, REAL_BOUND_MS, REAL_INFORMER_DEFAULTS, uniqueName, until, useControlPlane, type ControlPlane, type Protocol } from './support';

/**
 * Scope from permissions (issue 23, part 2) on a real kube-apiserver 1.34 with RBAC: a user bound
 * in some namespaces only is watched there, the namespaces found by a SelfSubjectRulesReview per
 * namespace (and a SelfSubjectAccessReview cluster wide first), never refused; a type the user
 * may list nowhere is one quiet entry and is never requested; without leave to list namespaces,
 * the kubeconfig context's namespace is the one asked about, as kubectl does.
 */
describe('[real] scope from permissions (kube-apiserver 1.34, RBAC)', function () {
  this.timeout(120_000);
  const LISTER = 'kw-namespace-lister';
  /** A user of its own per protocol: RoleBindings outlive a test on the shared control plane. */
  const teamOf = (protocol: Protocol) => `v18-team-${protocol === 'h2' ? 'h2' : 'http1'}`;
  const plane = useControlPlane({ extraUsers: [{ name: teamOf('h2') }, { name: teamOf('http/1.1') }] });
  const cleanups: (() => Promise<void> | void)[] = [];

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** Namespaces `a` and `b` the team may read (a RoleBinding each), `c` it may not; two ConfigMaps in each. */
  async function teamNamespaces(p: ControlPlane, team: string): Promise<{ a: string; b: string; c: string }> {
    const [a, b, c] = [await p.setup.namespace(uniqueName('v18-a')), await p.setup.namespace(uniqueName('v18-b')), await p.setup.namespace(uniqueName('v18-c'))];
    for (const ns of [a, b, c]) await p.setup.configMaps(ns).createMany(2);
    await p.setup.grant({ user: team }, { namespace: a });
    await p.setup.grant({ user: team }, { namespace: b });
    return { a, b, c };
  }

  /** A manager as `user`, with every lifecycle event kept; stopped after the test. */
  async function managerAs(p: ControlPlane, protocol: Protocol, user: string, resources: string[], contextNamespace?: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-v18-'));
    const kubeconfig = path.join(dir, 'config');
    fs.writeFileSync(kubeconfig, p.kubeconfig(user as 'reader', contextNamespace ? { namespace: contextNamespace } : {}));
    const registry = new ClusterRegistry(false);
    const manager = new WatchManager(
      { contexts: [], resources, namespaces: [], kubeconfigPath: kubeconfig },
      { clock: systemClock, clusterRegistry: registry, transportFactory: kubeConfigTransportFactoryWith(registry, { http2: protocol === 'h2' }), informerOptions: { backoff: REAL_INFORMER_DEFAULTS.backoff } },
    );
    cleanups.push(async () => {
      await manager.stop();
      registry.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const lifecycle: { id: string; event: TimedLifecycleEvent }[] = [];
    manager.onLifecycle((id, event) => lifecycle.push({ id, event }));
    await manager.start();
    return { manager, lifecycle };
  }

  const settled = (m: WatchManager, count: number): Promise<WatchEntry[]> =>
    until(
      () => {
        const es = m.entries();
        return es.length === count && es.every((e) => (e.informer && e.state.phase === 'watching' && e.state.synced) || e.errorKind === 'not-allowed') && es;
      },
      () => JSON.stringify(m.entries().map((e) => [e.label, e.state.phase, e.error])),
      REAL_BOUND_MS,
    );

  for (const { protocol, label } of PROTOCOLS) {
    it(`V18 [real] ${label}: a user bound in two namespaces (who may list namespaces) gets a watch in each, never a refusal; nodes, which they may list nowhere, are one quiet entry never requested`, async () => {
      const p = plane();
      const team = teamOf(protocol);
      const { a, b, c } = await teamNamespaces(p, team);
      await p.admin.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `${LISTER}-${team}` }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }] });
      await p.setup.grant({ user: team }, { clusterRole: `${LISTER}-${team}` });
      const { manager, lifecycle } = await managerAs(p, protocol, team, ['configmaps', 'nodes']);
      const entries = await settled(manager, 3);
      const configmaps = entries.filter((e) => e.resource === 'configmaps');
      assert.deepEqual(configmaps.map((e) => e.namespace).sort(), [a, b].sort());
      assert.ok(configmaps.every((e) => e.limitedByAccess === true));
      const names = configmaps.flatMap((e) => e.informer?.list().map((o) => `${o.metadata.namespace}/${o.metadata.name}`) ?? []);
      assert.ok(names.every((n) => !n.startsWith(`${c}/`)) && names.some((n) => n.startsWith(`${a}/`)) && names.some((n) => n.startsWith(`${b}/`)), names.join(', '));
      const nodes = entries.find((e) => e.resource === 'nodes');
      assert.equal(nodes?.errorKind, 'not-allowed');
      assert.match(nodes?.error ?? '', /you may not list and watch nodes/);
      const refused = lifecycle.filter((l) => l.event.type === 'state' && (l.event.state.phase === 'forbidden' || l.event.state.phase === 'unauthorized'));
      assert.deepEqual(refused, [], 'no watch was ever refused');
    });

    it(`V18 [real] ${label}: without leave to list namespaces, the context's namespace is asked about and watched alone`, async () => {
      const p = plane();
      const { b } = await teamNamespaces(p, teamOf(protocol));
      const { manager } = await managerAs(p, protocol, 'limited', ['configmaps'], b);
      // `limited` is bound nowhere here: the context's namespace is asked about, and it may not read it either.
      const denied = await settled(manager, 1);
      assert.equal(denied[0].errorKind, 'not-allowed');
      await p.setup.grant({ user: 'limited' }, { namespace: b });
      await manager.restartAll('test: access granted');
      await until(() => manager.entries().length === 1 && manager.entries()[0].namespace === b && manager.entries()[0].state.phase === 'watching', () => JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase, e.error])), REAL_BOUND_MS);
      assert.equal(manager.entries()[0].limitedByAccess, true);
    });
  }
});
