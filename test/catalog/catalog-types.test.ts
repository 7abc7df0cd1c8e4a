import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AbortedError } from '../../src/base';
import { ResourceCatalog } from '../../src/catalog';
import { WatchManager } from '../../src/manager';
import { FakeApiServer } from '../support/apiserver';

/** `ResourceCatalog.types`: what a consumer awaits to resolve kinds by discovery (a Helm release's objects). */
describe('catalog: the types a context serves, awaited', () => {
  let server: FakeApiServer;
  let manager: WatchManager;
  let catalog: ResourceCatalog;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-catalog-'));
  before(async () => {
    server = await FakeApiServer.start({ token: 'token-a' });
    server.writeKubeconfig(path.join(dir, 'config'), { context: 'ctx', token: 'token-a' });
    manager = new WatchManager({ contexts: [], resources: ['configmaps'], namespaces: [], kubeconfigPath: path.join(dir, 'config') });
    await manager.start();
    catalog = new ResourceCatalog(manager);
  });
  after(async () => {
    catalog.dispose();
    await manager.stop();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resolves with the served types once discovery answered, kinds with their plurals and scope', async () => {
    const types = await catalog.types('', AbortSignal.timeout(30_000));
    assert.deepEqual(types.find((t) => t.kind === 'Deployment'), { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true });
    assert.equal(types.find((t) => t.kind === 'Namespace')?.namespaced, false);
  });

  it('rejects with why for a context that is not watched, and with AbortedError when its signal ends first', async () => {
    await assert.rejects(catalog.types('nope', AbortSignal.timeout(30_000)), /the context is not watched/);
    const ctl = new AbortController();
    ctl.abort();
    await assert.rejects(new ResourceCatalog(manager).types('', ctl.signal), AbortedError);
  });
});
