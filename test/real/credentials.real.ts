import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base/clock';
import type { TimedLifecycleEvent } from '../../src/informer/lifecycle-event';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { WatchManager } from '../../src/manager';
import { PROTOCOLS, REAL_BOUND_MS, until, useControlPlane, type AuditEvent } from './support';

/**
 * Credentials that rotate on a real 1.34 server, through the whole product path: the kubeconfig
 * loader, the manager, the credential registry and our transport.
 */
describe('[real] credentials that rotate (kube-apiserver 1.34)', function () {
  this.timeout(180_000);
  const plane = useControlPlane({ audit: true });
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  for (const { label, http2 } of PROTOCOLS) {
    it(`F41 [real] ${label}: a ServiceAccount token in a relative tokenFile with a trailing newline (another user's token file missing) is rotated and the old one revoked: the watch reads the file again on the 401 and goes on without a restart, never unauthorized`, async () => {
      const p = plane();
      const home = await p.setup.namespace();
      await p.setup.serviceAccount(home, 'rotated');
      await p.setup.grant({ serviceAccount: { namespace: home, name: 'rotated' } }, { namespace: home });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-token-file-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      fs.mkdirSync(path.join(dir, 'sa'));
      const tokenFile = path.join(dir, 'sa', 'token');
      fs.writeFileSync(tokenFile, `${await p.setup.serviceAccountToken(home, 'rotated')}\n`);
      // The rendered kubeconfig, plus a user whose token file does not exist and a context naming it.
      const config = path.join(dir, 'config');
      fs.writeFileSync(
        config,
        p
          .kubeconfig({ tokenFile: 'sa/token' }, { namespace: home })
          .replace('users:\n', 'users:\n- name: "broken"\n  user:\n    tokenFile: "missing/token"\n')
          .replace('contexts:\n', 'contexts:\n- name: "broken"\n  context:\n    cluster: "real"\n    user: "broken"\n'),
      );
      const objects = p.setup.configMaps(home);
      await objects.createMany(1);

      const clusters = new ClusterRegistry(false);
      cleanups.push(() => clusters.dispose());
      const m = new WatchManager(
        // Short watches, so that requests go out again soon after the revocation.
        { contexts: ['real'], resources: ['configmaps'], namespaces: [home], kubeconfigPath: config, timeoutSeconds: 2, maxBackoffMs: 2000 },
        { clock: systemClock, clusterRegistry: clusters, transportFactory: kubeConfigTransportFactoryWith(clusters, { http2, clock: systemClock }) },
      );
      cleanups.push(() => m.stop());
      const events: TimedLifecycleEvent[] = [];
      m.onLifecycle((_id, e) => events.push(e));
      const entry = () => m.entries()[0];
      const states = () => JSON.stringify(m.entries().map((e) => [e.id, e.state.phase, e.error]));
      await m.start();
      await until(() => m.entries().length === 1 && entry().state.phase === 'watching' && entry().informer?.store.get(`${home}/cm-0`), states, REAL_BOUND_MS);

      // The account is deleted and made again (every old token refused once the server's 10 s
      // cache lets it go); the agent writes the new account's token into the file.
      const revokedAt = Date.now();
      await p.setup.deleteServiceAccount(home, 'rotated');
      await p.setup.serviceAccount(home, 'rotated');
      fs.writeFileSync(tokenFile, `${await p.setup.serviceAccountToken(home, 'rotated')}\n`);
      const ours = (e: AuditEvent) => e.requestURI.includes(`/namespaces/${home}/configmaps`) && Date.parse(e.requestReceivedTimestamp) >= revokedAt;
      const refused = () => p.requests((e) => ours(e) && e.responseStatus?.code === 401);
      await until(() => refused().length > 0, 'the old token refused (401) once the server let it go', REAL_BOUND_MS);
      const refusedAt = Date.parse(refused()[0].requestReceivedTimestamp);
      await until(
        () => p.requests((e) => ours(e) && e.verb === 'watch' && e.responseStatus?.code === 200 && Date.parse(e.requestReceivedTimestamp) >= refusedAt).length > 0,
        'a watch accepted with the token read from the file again',
        REAL_BOUND_MS,
      );
      const accepted = p.requests((e) => ours(e) && e.responseStatus?.code === 200 && Date.parse(e.requestReceivedTimestamp) >= refusedAt);
      assert.ok(accepted.every((e) => e.user.username === `system:serviceaccount:${home}:rotated`), 'as the ServiceAccount');
      await objects.update('cm-0', 'after-rotation');
      await until(() => (entry().informer?.store.get(`${home}/cm-0`) as { data?: { v?: string } } | undefined)?.data?.v === 'after-rotation', states, REAL_BOUND_MS);
      const phases = events.flatMap((e) => (e.type === 'state' ? [e.state.phase] : []));
      assert.ok(!phases.includes('unauthorized'), `never unauthorized: ${phases.join(', ')}`);
      assert.ok(!events.some((e) => e.type === 'list-started' && e.at >= revokedAt && !e.relist), 'no restart');
    });
  }
});
