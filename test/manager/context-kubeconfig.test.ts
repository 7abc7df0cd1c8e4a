import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ManagerRig, allSynced } from './manager-rig';
import { until } from '../support/until';

/**
 * `WatchManager.contextKubeconfig`: the kubeconfig files a context was read from, as the session read
 * them, never the setting as it reads now. A CLI pinned to a context (helm's --kubeconfig) is
 * pointed at these, so it cannot act through a different file than the one the view came from.
 */
describe('manager: the kubeconfig files a context came from', () => {
  let rig: ManagerRig;
  beforeEach(async () => {
    rig = await ManagerRig.start();
  });
  afterEach(async () => {
    await rig.close();
  });

  it('names the file read, and keeps naming it when the setting moves to a file that cannot be read', async () => {
    const { m } = rig.manager({ resources: ['configmaps'] });
    await m.start();
    await allSynced(m, 1);
    assert.deepEqual(m.contextKubeconfig(''), { contextName: 'ctx-a', kubeconfigFiles: [rig.kubeconfig] });

    const missing = path.join(rig.dir, 'moved-away');
    await m.update({ ...m.configuration, kubeconfigPath: missing });
    await until(() => /still using the configuration read before/.test(m.entries()[0]?.error ?? ''), () => JSON.stringify(m.entries().map((e) => e.error)));
    assert.equal(m.configuration.kubeconfigPath, missing, 'the setting says the new file');
    assert.deepEqual(m.contextKubeconfig(''), { contextName: 'ctx-a', kubeconfigFiles: [rig.kubeconfig] }, 'the context still came from the file read before');
  });

  it('names every file of a merged KUBECONFIG-style list, in order, and the context the current-context resolved to', async () => {
    const other = path.join(rig.dir, 'other');
    fs.writeFileSync(other, 'apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts:\n- name: elsewhere\n  context: {cluster: nowhere}\n');
    const { m } = rig.manager({ resources: ['configmaps'], kubeconfigPath: [rig.kubeconfig, other].join(path.delimiter) });
    await m.start();
    await allSynced(m, 1);
    assert.deepEqual(m.contextKubeconfig(''), { contextName: 'ctx-a', kubeconfigFiles: [rig.kubeconfig, other] });
    assert.equal(m.contextKubeconfig('not-configured'), undefined);
  });
});
