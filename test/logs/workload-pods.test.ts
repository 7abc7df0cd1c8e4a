import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { labelSelectorOf, ownedByWorkload, readableContainers, workloadRefOf, type WorkloadRef } from '../../src/logs';
import { leftOutLine, podEndedLine, workloadHeaderLines, workloadTerminalName } from '../../src/ui/logs';
import { presentObject } from '../../src/ui/tree/node-presentation';

const obj = (o: Partial<KubeObject> & { metadata: KubeObject['metadata'] }): KubeObject => o;

describe('logs: which pods and containers belong to a workload', () => {
  it('turns spec.selector into a labelSelector, and refuses an empty one (it would select every pod)', () => {
    assert.equal(
      labelSelectorOf({
        matchLabels: { tier: 'web', app: 'shop' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'staging'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'NotIn', values: ['b'] },
          { key: 'team', operator: 'Exists' },
        ],
      }),
      'app=shop,!canary,env in (prod,staging),team,tier=web,zone notin (b)',
    );
    assert.equal(labelSelectorOf({}), undefined);
    assert.equal(labelSelectorOf(undefined), undefined);
    assert.equal(workloadRefOf('Deployment', obj({ metadata: { name: 'web', namespace: 'shop' }, spec: {} })), 'Deployment web has no pod selector');
    assert.equal(workloadRefOf('ConfigMap', obj({ metadata: { name: 'x' } })), 'ConfigMap has no pods of its own to follow');
    assert.deepEqual(workloadRefOf('StatefulSet', obj({ metadata: { name: 'db', namespace: 'shop', uid: 'u1' }, spec: { selector: { matchLabels: { app: 'db' } } } })), {
      kind: 'StatefulSet',
      namespace: 'shop',
      name: 'db',
      uid: 'u1',
      selector: 'app=db',
    });
  });

  it("follows the owner chain: a Deployment's pods are its ReplicaSets' pods; other kinds own their pods directly", () => {
    const deploy: WorkloadRef = { kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd1', selector: 'app=web' };
    const rs = (name: string, uid: string, owner?: string) =>
      obj({ metadata: { name, uid, ownerReferences: owner ? [{ kind: 'Deployment', name: 'web', uid: owner, controller: true }] : undefined } });
    const pod = (owner?: { kind: string; name: string; uid: string }) => obj({ metadata: { name: 'p', ownerReferences: owner ? [{ ...owner, controller: true }] : undefined } });
    const mine = rs('web-1', 'r1', 'd1');
    const stranger = rs('web-canary', 'r2', 'other-uid');
    assert.equal(ownedByWorkload(pod({ kind: 'ReplicaSet', name: 'web-1', uid: 'r1' }), deploy, [mine, stranger]), true);
    assert.equal(ownedByWorkload(pod({ kind: 'ReplicaSet', name: 'web-canary', uid: 'r2' }), deploy, [mine, stranger]), false);
    assert.equal(ownedByWorkload(pod({ kind: 'ReplicaSet', name: 'web-2', uid: 'r3' }), deploy, [mine]), false, 'its ReplicaSet is not known yet');
    assert.equal(ownedByWorkload(pod({ kind: 'ReplicaSet', name: 'web-2', uid: 'r3' }), deploy, undefined), true, 'ReplicaSets unreadable: the selector decides');
    assert.equal(ownedByWorkload(pod(), deploy, [mine]), true, 'no owner: the selector decides');
    const job: WorkloadRef = { kind: 'Job', namespace: 'shop', name: 'migrate', uid: 'j1', selector: 'job-name=migrate' };
    assert.equal(ownedByWorkload(pod({ kind: 'Job', name: 'migrate', uid: 'j1' }), job, undefined), true);
    assert.equal(ownedByWorkload(pod({ kind: 'Job', name: 'migrate', uid: 'j0' }), job, undefined), false, 'an earlier Job of the same name');
  });

  it('reads the containers that ran: init ones once started, in kubectl --all-containers order', () => {
    const pod = obj({
      metadata: { name: 'p' },
      spec: { initContainers: [{ name: 'migrate' }, { name: 'wait' }], containers: [{ name: 'app' }, { name: 'sidecar' }] },
      status: {
        initContainerStatuses: [
          { name: 'migrate', state: { terminated: { exitCode: 0 } }, containerID: 'containerd://1' },
          { name: 'wait', state: { waiting: {} } },
        ],
        containerStatuses: [
          { name: 'app', state: { waiting: { reason: 'PodInitializing' } } },
          { name: 'sidecar', state: { running: {} }, containerID: 'containerd://2' },
        ],
      },
    });
    assert.deepEqual(readableContainers(pod), ['migrate', 'sidecar']);
    assert.deepEqual(readableContainers(obj({ metadata: { name: 'q' }, spec: { containers: [{ name: 'app' }] } })), ['app'], 'no status yet: try');
  });

  it('names the terminal, the tree row and the lines as kubectl would', () => {
    assert.equal(workloadTerminalName('Deployment', 'shop', 'web'), 'logs shop/deploy/web');
    assert.equal(workloadTerminalName('StatefulSet', 'shop', 'db'), 'logs shop/sts/db');
    assert.equal(podEndedLine('web-1', 'deleted', 'deploy/web'), '\x1b[2m── pod/web-1 deleted ──\x1b[0m\r\n');
    assert.deepEqual(workloadHeaderLines('Deployment', 'shop', 'web', 'app=web', 10, 20, 1000).map((l) => l.replace(/\x1b\[\d+m/g, '')), [
      '── following every container of the pods of shop/deploy/web (app=web), as they come and go ──\r\n',
      '── running containers start from their last 10 lines, new pods from their start; at most 20 streams (kubeWatch.logs.maxStreams); keeps the last 1,000 lines (terminal.integrated.scrollback); close the terminal to stop ──\r\n',
    ]);
    assert.equal(
      leftOutLine(['a/x', 'b/x', 'c/x', 'd/x', 'e/x', 'f/x', 'g/x'], 20),
      '\x1b[33m── not following 7 containers (at most 20 streams, setting kubeWatch.logs.maxStreams): pod/a/x, pod/b/x, pod/c/x, pod/d/x, pod/e/x and 2 more ──\x1b[0m\r\n',
    );
    const row = (kind: string) => presentObject(obj({ metadata: { name: 'n', namespace: 'shop' } }), 'n', kind, 0).contextValue;
    assert.deepEqual(['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ConfigMap', 'CronJob'].map(row), [
      'object.pod',
      'object.workload',
      'object.workload',
      'object.workload',
      'object.workload',
      'object.workload',
      'object',
      'object',
    ]);
  });
});
