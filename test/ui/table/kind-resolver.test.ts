/**
 * `:` in the table for a type neither watched nor catalogued: resolved through the context's
 * discovery, as kubectl resolves a spelling (a CRD's short name), over the manager's real
 * transport to the local API server.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WatchManager } from '../../../src/manager';
import { resolveKindOnServer } from '../../../src/ui/table';
import { FakeApiServer } from '../../support/apiserver';
import { until } from '../../support/until';

describe('table: a kind resolved through discovery', function () {
  this.timeout(60_000);
  let server: FakeApiServer;
  let dir: string;
  let manager: WatchManager;

  beforeEach(async () => {
    server = await FakeApiServer.start();
    server.defineResource({ group: 'cert-manager.io', version: 'v1', resource: 'certificates', kind: 'Certificate', namespaced: true, shortNames: ['cert', 'certs'] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-kinds-'));
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'sim', cluster: 'sim', user: 'admin' });
    manager = new WatchManager({ contexts: [], resources: ['configmaps'], namespaces: [], kubeconfigPath: kubeconfig });
    await manager.start();
    await until(() => manager.entries().length === 1 && manager.entries()[0].state.synced, 'the configmaps watch synced');
  });

  afterEach(async () => {
    await manager.stop();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a CRD's short name, singular and kind find its type; an unknown name, an empty one or a context with no connection find none", async () => {
    const context = manager.entries()[0].context;
    for (const spelling of [':cert', 'certs', ' :certificate ', 'Certificate', 'certificates.cert-manager.io']) {
      const type = await resolveKindOnServer(manager, context, spelling);
      assert.deepEqual(type && { group: type.group, resource: type.resource, kind: type.kind, namespaced: type.namespaced }, { group: 'cert-manager.io', resource: 'certificates', kind: 'Certificate', namespaced: true }, spelling);
    }
    assert.equal(await resolveKindOnServer(manager, context, ':nonesuch'), undefined);
    assert.equal(await resolveKindOnServer(manager, context, ':'), undefined);
    assert.equal(await resolveKindOnServer(manager, 'elsewhere', ':cert'), undefined);
  });
});
