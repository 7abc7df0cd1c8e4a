import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dump, load } from 'js-yaml';
import { runActionFlow, WriteJournal, type ActionDialogPort, type ActionPlan, type PinnedTarget } from '../../src/actions';
import { systemClock } from '../../src/base';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { EditSession } from '../../src/edit';
import { WatchManager, type WatchEntry } from '../../src/manager';
import { actionChoices, deleteChoices, revisionChoices } from '../../src/ui/actions';
import { PROTOCOLS, REAL_BOUND_MS, REAL_INFORMER_DEFAULTS, uniqueName, until, useControlPlane, type ControlPlane, type Protocol } from './support';

/**
 * W01 on two real control planes at once: one kubeconfig file with contexts `staging` and `prod`
 * (each a kube-apiserver 1.34 of its own) and objects of the same names in both. The real
 * WatchManager follows the current-context; an edit is opened and an action planned on staging;
 * the file's current-context is rewritten to prod (as `kubectl config use-context` does) while
 * the edit is open and the confirmation is up; then the save and the confirmation go on.
 * Nothing may reach prod: the origin of both is staging, and staging's connection is gone.
 */
describe('[real] pinned writes: two clusters, one kubeconfig (kube-apiserver 1.34)', function () {
  this.timeout(240_000);
  const staging = useControlPlane({}, 'staging');
  const prod = useControlPlane({}, 'prod');
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** One kubeconfig text with a context per plane (admin on each), `current` the current-context. */
  function twoContexts(current: 'staging' | 'prod'): string {
    const docs = [load(staging().kubeconfig('admin', { name: 'staging' })), load(prod().kubeconfig('admin', { name: 'prod' }))] as Record<string, unknown[]>[];
    return dump({ apiVersion: 'v1', kind: 'Config', clusters: docs.flatMap((d) => d.clusters), users: docs.flatMap((d) => d.users), contexts: docs.flatMap((d) => d.contexts), 'current-context': current });
  }

  /** Namespace `ns`, ConfigMap `web` and Deployment `web` in a plane, saying which cluster they are on. */
  async function shop(p: ControlPlane, ns: string, cluster: string, replicas: number): Promise<void> {
    await p.setup.namespace(ns);
    await p.admin.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { CLUSTER: cluster, LOG_LEVEL: 'info' } });
    await p.admin.post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'web' },
      spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: `registry.example.com/web:${cluster}` }] } } },
    });
  }

  /** The manager on a kubeconfig file (current-context staging), following the file as the extension does. */
  async function managerOn(protocol: Protocol, ns: string): Promise<{ manager: WatchManager; file: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-w01-'));
    const file = path.join(dir, 'config');
    fs.writeFileSync(file, twoContexts('staging'));
    const registry = new ClusterRegistry(false);
    const manager = new WatchManager(
      { contexts: [], resources: ['configmaps', 'deployments.apps'], namespaces: [ns], kubeconfigPath: file },
      { clock: systemClock, clusterRegistry: registry, kubeconfigDebounceMs: 50, transportFactory: kubeConfigTransportFactoryWith(registry, { http2: protocol === 'h2' }), informerOptions: { backoff: REAL_INFORMER_DEFAULTS.backoff } },
    );
    const following = manager.watchKubeconfigFiles();
    cleanups.push(async () => {
      following.dispose();
      await manager.stop();
      registry.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    await manager.start();
    return { manager, file };
  }

  /** The entry of `resource`, synced on context `context` and showing its `web`. */
  const synced = (manager: WatchManager, resource: string, context: string, ns: string): Promise<WatchEntry> =>
    until(() => manager.entries().find((e) => e.resource === resource && e.context === context && e.state.synced && e.informer?.get(ns, 'web')), `${resource} synced on ${context}`, REAL_BOUND_MS);

  /** A dialog port that answers as a user would, and holds the confirmation until `release` resolves. */
  function dialogs(answers: { replicas: string }, release: Promise<void>) {
    const said: string[] = [];
    const confirmed: ActionPlan[] = [];
    const port: ActionDialogPort = {
      askText: async (title) => (said.push(`ask: ${title}`), answers.replicas),
      pickChoice: async () => undefined,
      confirmPlan: async (plan) => {
        said.push(`confirm: ${plan.title}`);
        confirmed.push(plan);
        await release;
        return 'confirmed';
      },
      info: (m) => void said.push(`info: ${m}`),
      warning: (m) => void said.push(`warning: ${m}`),
      error: async (m) => (said.push(`error: ${m}`), undefined),
      status: (m) => void said.push(`status: ${m}`),
      copy: async (text) => void said.push(`copy: ${text}`),
    };
    return { port, said, confirmed };
  }

  for (const { protocol, label } of PROTOCOLS) {
    it(`W01 [real] ${label}: the current context switches from staging to prod while an edit is open and a scale awaits its confirmation: the save and the scale are refused naming both contexts; prod and staging are untouched`, async () => {
      const ns = uniqueName('shop');
      await shop(staging(), ns, 'staging', 2);
      await shop(prod(), ns, 'prod', 5);
      const cm = `/api/v1/namespaces/${ns}/configmaps/web`;
      const deploy = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
      const before = { prodCm: await prod().admin.get(cm), prodDeploy: await prod().admin.get(deploy), stagingCm: await staging().admin.get(cm), stagingDeploy: await staging().admin.get(deploy) };
      const { manager, file } = await managerOn(protocol, ns);
      const cms = await synced(manager, 'configmaps', 'staging', ns);
      const deployments = await synced(manager, 'deployments.apps', 'staging', ns);

      // The edit, opened on staging's ConfigMap as the editor opens it (edit-documents.ts).
      const object = cms.informer!.get(ns, 'web')!;
      const origin = manager.originOf(cms.id, object)!;
      assert.equal(origin.context, 'staging');
      const session = new EditSession({ type: cms.type!, namespace: ns, name: 'web', origin, connect: (o) => manager.resolveOrigin(o) }, object, { hideServerFields: true });
      const removed = manager.onObjectsRemoved((r) => {
        if (r.entryId === cms.id) session.noteLive(undefined, Date.now(), 'unwatched');
      });
      cleanups.push(() => removed.dispose());
      const text = session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug');

      // The scale, planned on staging's Deployment; its confirmation waits for the switch.
      let release!: () => void;
      const ui = dialogs({ replicas: '9' }, new Promise<void>((r) => (release = r)));
      const journal = new WriteJournal(manager);
      cleanups.push(() => journal.dispose());
      const target = deployments.informer!.get(ns, 'web')!;
      const pinned: PinnedTarget = { target: { context: deployments.context, type: deployments.type!, namespace: ns, name: 'web', object: target }, origin: manager.originOf(deployments.id, target)! };
      const flow = runActionFlow('scale', pinned, {
        dialogs: ui.port,
        choices: { revisions: revisionChoices, deleteOptions: deleteChoices, actions: actionChoices },
        journal,
        clock: systemClock,
        connect: (o) => manager.resolveOrigin(o),
        watched: () => undefined,
        drain: async () => undefined,
      });
      await until(() => ui.confirmed.length === 1, 'the scale asks for its confirmation', REAL_BOUND_MS);

      // `kubectl config use-context prod`: the file is rewritten; the manager follows it.
      fs.writeFileSync(file, twoContexts('prod'));
      await synced(manager, 'configmaps', 'prod', ns);
      await synced(manager, 'deployments.apps', 'prod', ns);

      release();
      await flow;
      const saved = await session.save(text, new AbortController().signal);

      const prodServer = prod().url;
      const stagingServer = staging().url;
      const words = `This object is from context "staging" (server ${stagingServer}); the current context is now "prod" (server ${prodServer}): nothing was sent.`;
      assert.equal(saved.kind, 'refused', JSON.stringify(saved));
      assert.equal(saved.kind === 'refused' && saved.refusal.message, `${words} Your edit is kept; Save As… keeps it in a file.`);
      assert.deepEqual(ui.said, [
        `ask: Scale Deployment ${ns}/web`,
        `confirm: ${ui.confirmed[0].title}`,
        `error: Scale Deployment ${ns}/web: ${words} The plan was not sent to the new context; run the action again on the object as the new context shows it.`,
      ]);
      assert.deepEqual(journal.records(), [], 'nothing was begun, so nothing was sent');

      const after = { prodCm: await prod().admin.get(cm), prodDeploy: await prod().admin.get(deploy), stagingCm: await staging().admin.get(cm), stagingDeploy: await staging().admin.get(deploy) };
      for (const key of ['prodCm', 'prodDeploy', 'stagingCm', 'stagingDeploy'] as const) {
        assert.equal(after[key].metadata.resourceVersion, before[key].metadata.resourceVersion, `${key} untouched`);
      }
      assert.deepEqual(after.prodCm.data, { CLUSTER: 'prod', LOG_LEVEL: 'info' });
      assert.equal((after.prodDeploy.spec as { replicas: number }).replicas, 5);
    });
  }

  it(`W01 [real] HTTP/2: the watched contexts change from the current-context to staging and prod by name while an edit of staging's object is open: the save goes to staging (the same context, cluster and user), prod is untouched`, async () => {
    const ns = uniqueName('shop');
    await shop(staging(), ns, 'staging', 2);
    await shop(prod(), ns, 'prod', 5);
    const cm = `/api/v1/namespaces/${ns}/configmaps/web`;
    const prodBefore = await prod().admin.get(cm);
    const { manager, file } = await managerOn('h2', ns);
    const current = await synced(manager, 'configmaps', 'staging', ns);
    const object = current.informer!.get(ns, 'web')!;
    const session = new EditSession({ type: current.type!, namespace: ns, name: 'web', origin: manager.originOf(current.id, object)!, connect: (o) => manager.resolveOrigin(o) }, object, { hideServerFields: true });
    // The session the edit was read through is dropped; a session for "staging" by name replaces it.
    await manager.update({ ...manager.configuration, contexts: ['staging', 'prod'], kubeconfigPath: file });
    assert.equal(manager.entry(current.id), undefined, 'the current-context entry is gone');
    const saved = await session.save(session.render().replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'), new AbortController().signal);
    assert.equal(saved.kind, 'saved', JSON.stringify(saved));
    assert.deepEqual((await staging().admin.get(cm)).data, { CLUSTER: 'staging', LOG_LEVEL: 'debug' }, 'written where it was read');
    const prodAfter = await prod().admin.get(cm);
    assert.equal(prodAfter.metadata.resourceVersion, prodBefore.metadata.resourceVersion, 'prod untouched');
  });
});
