import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { nodeFigures, podFigures, podReservations } from '../../src/metrics';

function pod(containers: object[], initContainers: object[] = []): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' }, spec: { containers, initContainers }, status: { phase: 'Running' } } as KubeObject;
}

describe("metrics: k9s's pod and node figures", () => {
  it('%CPU/R against the summed requests and %MEM/L against the summed limits, floored', () => {
    const p = pod([
      { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } } },
      { name: 'b', resources: { requests: { cpu: '0.2', memory: '64Mi' }, limits: { memory: '128Mi' } } },
    ]);
    const f = podFigures(p, { cpu: 150, mem: 100 * 2 ** 20 });
    assert.deepEqual(podReservations(p), { cpuRequest: 300, memRequest: 128 * 2 ** 20, cpuLimit: 1000, memLimit: 256 * 2 ** 20 });
    assert.equal(f.cpuOfRequest, 50);
    assert.equal(f.memOfLimit, 39); // 100/256 = 39.06%
  });

  it('a container without requests counts its limits as requests (the API server defaults them so); none at all: no percentage', () => {
    const limited = pod([{ name: 'a', resources: { limits: { cpu: '500m', memory: '1Gi' } } }]);
    assert.equal(podFigures(limited, { cpu: 250, mem: 0 }).cpuOfRequest, 50);
    const bare = pod([{ name: 'a' }]);
    const f = podFigures(bare, { cpu: 250, mem: 10 });
    assert.equal(f.cpuOfRequest, undefined);
    assert.equal(f.memOfLimit, undefined);
  });

  it('sidecars (init containers with restartPolicy Always) count; plain init containers do not', () => {
    const p = pod([{ name: 'app', resources: { requests: { cpu: '100m' } } }], [
      { name: 'setup', resources: { requests: { cpu: '900m' } } },
      { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '100m' }, limits: { memory: '100Mi' } } },
    ]);
    assert.equal(podReservations(p).cpuRequest, 200);
    assert.equal(podFigures(p, { cpu: 100, mem: 50 * 2 ** 20 }).memOfLimit, 50);
  });

  it('a node against its allocatable', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { allocatable: { cpu: '4', memory: '16Gi' }, capacity: { cpu: '4', memory: '17Gi' } } } as KubeObject;
    const f = nodeFigures(node, { cpu: 1000, mem: 4 * 2 ** 30 });
    assert.equal(f.cpuPercent, 25);
    assert.equal(f.memPercent, 25);
    const unknown = nodeFigures({ ...node, status: {} } as KubeObject, { cpu: 1, mem: 1 });
    assert.equal(unknown.cpuPercent, undefined);
  });
});

describe('metrics: the pods of a Deployment whose ReplicaSets are not watched', () => {
  it('are those whose controlling ReplicaSet is named after the Deployment and their pod-template-hash', async () => {
    const { workloadPods } = await import('../../src/metrics/usage-reading');
    const deploy: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', uid: 'd1' } };
    const pod = (name: string, rs: string, hash: string | undefined): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'shop', labels: hash ? { app: 'web', 'pod-template-hash': hash } : { app: 'web' }, ownerReferences: [{ kind: 'ReplicaSet', name: rs, uid: `rs-${rs}`, controller: true }] },
    });
    const pods = [pod('web-7d9-a', 'web-7d9', '7d9'), pod('web-7d9-b', 'web-7d9', '7d9'), pod('webhook-5c6-a', 'webhook-5c6', '5c6'), pod('web-x', 'web-other', 'zzz'), pod('web-nohash', 'web-7d9', undefined)];
    const noReplicaSets = (kind: 'Pod' | 'ReplicaSet') => (kind === 'Pod' ? pods : []);
    assert.deepEqual(workloadPods(deploy, noReplicaSets).map((p) => p.metadata.name), ['web-7d9-a', 'web-7d9-b']);
    // With its ReplicaSet watched, ownership decides by uid.
    const rs: KubeObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-7d9', namespace: 'shop', uid: 'rs-web-7d9', ownerReferences: [{ kind: 'Deployment', name: 'web', uid: 'd1', controller: true }] } };
    const withReplicaSets = (kind: 'Pod' | 'ReplicaSet') => (kind === 'Pod' ? pods : [rs]);
    assert.deepEqual(workloadPods(deploy, withReplicaSets).map((p) => p.metadata.name), ['web-7d9-a', 'web-7d9-b', 'web-nohash']);
  });
});
