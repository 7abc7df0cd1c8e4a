import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { commandText, confirmationText, helmArgs, helmEnvironment, releasesFrom, revisionRecordOf, stuckAdviceOf, type ReleaseTarget, type RevisionRecord } from '../../src/helm';
import type { KubeObject } from '../../src/informer';

function meta(name: string, labels: Record<string, string>, namespace = 'shop'): KubeObject {
  return { kind: 'PartialObjectMetadata', metadata: { name, namespace, labels, uid: name, resourceVersion: '1', creationTimestamp: '2026-11-01T00:00:00Z' } };
}

function rec(name: string, revision: number, status: string, storage: 'secret' | 'configmap' = 'secret'): RevisionRecord {
  return revisionRecordOf(meta(`sh.helm.release.v1.${name}.v${revision}`, { name, owner: 'helm', status, version: String(revision), modifiedAt: '1790000000' }), storage)!;
}

describe('helm: releases from labels', () => {
  it('reads name, revision, status and modifiedAt from the labels; the object name fills in a missing label; others are not releases', () => {
    const r = rec('web', 3, 'deployed');
    assert.deepEqual([r.name, r.revision, r.status, r.modifiedAt, r.objectName], ['web', 3, 'deployed', 1_790_000_000_000, 'sh.helm.release.v1.web.v3']);
    const noLabels = revisionRecordOf(meta('sh.helm.release.v1.my.app.v12', { owner: 'helm' }), 'secret')!;
    assert.deepEqual([noLabels.name, noLabels.revision, noLabels.status, noLabels.modifiedAt], ['my.app', 12, 'unknown', Date.parse('2026-11-01T00:00:00Z')]);
    assert.equal(revisionRecordOf(meta('db', { owner: 'helm' }), 'secret'), undefined);
    assert.equal(revisionRecordOf(meta('sh.helm.release.v1.x.v1', { owner: 'someone' }), 'secret'), undefined);
  });

  it('groups revisions into releases: the newest is the state, the count is every kept revision; the two drivers stay apart', () => {
    const releases = releasesFrom([rec('web', 2, 'deployed'), rec('web', 1, 'superseded'), rec('api', 1, 'failed'), rec('web', 1, 'deployed', 'configmap')]);
    assert.deepEqual(
      releases.map((r) => `${r.storage} ${r.name} rev ${r.latest.revision} ${r.latest.status} (${r.revisions.length})`),
      ['secret api rev 1 failed (1)', 'configmap web rev 1 deployed (1)', 'secret web rev 2 deployed (2)'],
    );
  });

  it('flags a release stuck in pending-upgrade with a rollback to the last deployed revision; pending-install with uninstall', () => {
    const stuck = stuckAdviceOf([rec('ledger', 1, 'superseded'), rec('ledger', 2, 'deployed'), rec('ledger', 3, 'pending-upgrade')])!;
    assert.equal(stuck.rollbackTo, 2);
    assert.match(stuck.text, /Stuck in pending-upgrade at revision 3.*Roll back to revision 2/);
    const install = stuckAdviceOf([rec('new', 1, 'pending-install')])!;
    assert.equal(install.rollbackTo, undefined);
    assert.match(install.text, /Uninstall/);
    assert.equal(stuckAdviceOf([rec('ok', 1, 'deployed')]), undefined);
    assert.equal(stuckAdviceOf([rec('r', 1, 'deployed'), rec('r', 2, 'pending-rollback')])!.rollbackTo, 1);
  });
});

describe('helm: CLI arguments pinned to the release context', () => {
  const target: ReleaseTarget = { context: 'prod', kubeconfigFiles: ['/home/me/.kube/config'], namespace: 'payments', release: 'ledger' };
  it('rollback, uninstall and upgrade carry --kube-context, --kubeconfig and --namespace', () => {
    assert.deepEqual(helmArgs(target, { kind: 'rollback', revision: 2 }), ['rollback', 'ledger', '2', '--kube-context', 'prod', '--kubeconfig', '/home/me/.kube/config', '--namespace', 'payments', '--wait']);
    assert.deepEqual(helmArgs(target, { kind: 'uninstall' }), ['uninstall', 'ledger', '--kube-context', 'prod', '--kubeconfig', '/home/me/.kube/config', '--namespace', 'payments', '--wait']);
    assert.deepEqual(helmArgs({ ...target, kubeconfigFiles: [] }, { kind: 'upgrade', chart: 'repo/ledger', version: '3.2.0', valuesFile: 'values/prod.yaml' }), [
      'upgrade', 'ledger', 'repo/ledger', '--version', '3.2.0', '--values', 'values/prod.yaml', '--kube-context', 'prod', '--namespace', 'payments', '--wait',
    ]);
  });
  it('the command to copy quotes what a shell would split; the confirmation names context, release and revision', () => {
    assert.equal(commandText(helmArgs({ ...target, context: "my ctx's" }, { kind: 'rollback', revision: 2 })), `helm rollback ledger 2 --kube-context 'my ctx'\\''s' --kubeconfig /home/me/.kube/config --namespace payments --wait`);
    assert.equal(confirmationText(target, { kind: 'rollback', revision: 2 }, 3), 'Roll back release ledger in namespace payments on context prod from revision 3 to revision 2?');
  });
  it('several kubeconfig files (a merged list): no --kubeconfig (helm takes one path), the same list in KUBECONFIG, and in front of the command to copy', () => {
    const merged: ReleaseTarget = { ...target, kubeconfigFiles: ['/a/config', '/b/config'] };
    assert.ok(!helmArgs(merged, { kind: 'uninstall' }).includes('--kubeconfig'));
    assert.deepEqual(helmEnvironment(merged), { KUBECONFIG: ['/a/config', '/b/config'].join(path.delimiter) });
    assert.deepEqual(helmEnvironment(target), { KUBECONFIG: undefined }, 'one file: the flag names it and a KUBECONFIG of the host is not passed on');
    assert.equal(commandText(helmArgs(merged, { kind: 'uninstall' }), merged), `KUBECONFIG=/a/config${path.delimiter}/b/config helm uninstall ledger --kube-context prod --namespace payments --wait`);
  });
});
