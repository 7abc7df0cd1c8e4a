/** Services, Ingresses, Nodes, PVCs, ConfigMaps, Secrets, Namespaces against kubectl's columns (printers_test.go shapes, real objects). */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/informer';
import { describeRow, printObject } from '../../../src/ui/printers';
import { DAY, NOW, ago, defaultCells, transcriptObject } from './support';

const svc = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'test1', creationTimestamp: ago(0) }, spec, status });

describe('printers: services, ingresses, nodes, storage, config', () => {
  it('Service: TYPE CLUSTER-IP EXTERNAL-IP PORTS AGE (TestPrintService)', () => {
    assert.deepEqual(defaultCells(printObject(svc({ type: 'ClusterIP', ports: [{ protocol: 'TCP', port: 2233 }], clusterIPs: ['10.9.8.7'] }), 'Service', NOW)), ['test1', 'ClusterIP', '10.9.8.7', '<none>', '2233/TCP', '0s']);
    assert.deepEqual(defaultCells(printObject(svc({ type: 'NodePort', ports: [{ protocol: 'TCP', port: 8888, nodePort: 9999 }], clusterIPs: ['10.9.8.7'] }), 'Service', NOW)), ['test1', 'NodePort', '10.9.8.7', '<none>', '8888:9999/TCP', '0s']);
    assert.deepEqual(
      defaultCells(printObject(svc({ type: 'LoadBalancer', ports: [{ protocol: 'TCP', port: 8888 }], clusterIPs: ['10.9.8.7'], externalIPs: ['80.11.12.10'] }, { loadBalancer: { ingress: [{ ip: '3.4.5.6', hostname: 'test.cluster.com' }] } }), 'Service', NOW)),
      ['test1', 'LoadBalancer', '10.9.8.7', '3.4.5.6,80.11.12.10', '8888/TCP', '0s'],
    );
    assert.deepEqual(defaultCells(printObject(svc({ type: 'LoadBalancer', ports: [{ protocol: 'TCP', port: 8888 }], clusterIPs: ['10.9.8.7'] }), 'Service', NOW)), ['test1', 'LoadBalancer', '10.9.8.7', '<pending>', '8888/TCP', '0s']);
    assert.deepEqual(defaultCells(printObject(svc({ type: 'ExternalName', externalName: 'my.database.example.com' }), 'Service', NOW)), ['test1', 'ExternalName', '<none>', 'my.database.example.com', '<none>', '0s']);
    const lb = printObject(svc({ type: 'LoadBalancer', ports: [{ port: 80 }], clusterIPs: ['10.0.0.1'] }, { loadBalancer: { ingress: [{ ip: '10.10.10.10' }, { ip: '10.10.10.11' }, { ip: '10.10.10.12' }] } }), 'Service', NOW);
    assert.equal(lb.cells[3], '10.10.10.10,1...', 'clipped to 16 characters outside -o wide');
    const kubernetes = printObject(svc({ type: 'ClusterIP', clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, targetPort: 6443 }] }), 'Service', NOW);
    assert.equal(describeRow(kubernetes), 'ClusterIP 10.96.0.1 · 443/TCP · 0s');
  });

  it('Ingress: CLASS HOSTS ADDRESS PORTS AGE (TestPrintIngress)', () => {
    const ing: KubeObject = {
      metadata: { name: 'test1', creationTimestamp: ago(10 * 365 * DAY) },
      spec: { ingressClassName: 'foo', defaultBackend: { service: { name: 'default-backend', port: { name: 'default-backend' } } } },
      status: { loadBalancer: { ingress: [{ ip: '2.3.4.5', hostname: 'localhost.localdomain' }] } },
    };
    assert.deepEqual(defaultCells(printObject(ing, 'Ingress', NOW)), ['test1', 'foo', '*', '2.3.4.5', '80', '10y']);
    const many: KubeObject = { metadata: { name: 'hosts' }, spec: { rules: ['a', 'b', 'c', 'd', 'e'].map((h) => ({ host: `${h}.example.com` })), tls: [{ hosts: ['a.example.com'] }] } };
    const row = printObject(many, 'Ingress', NOW);
    assert.deepEqual(defaultCells(row).slice(1, 5), ['<none>', 'a.example.com,b.example.com,c.example.com + 2 more...', '', '80, 443']);
    assert.equal(describeRow(row).split(' · ')[0], 'no address');
  });

  it('Node: STATUS ROLES AGE VERSION (TestPrintNodeStatus, TestPrintNodeRole)', () => {
    const node = (conditions: unknown[], extra: { unschedulable?: boolean; labels?: Record<string, string> } = {}): KubeObject => ({
      metadata: { name: 'foo', labels: extra.labels ?? {}, creationTimestamp: ago(40 * DAY) },
      spec: { unschedulable: extra.unschedulable },
      status: { conditions, nodeInfo: { kubeletVersion: 'v1.30.2' } },
    });
    assert.equal(printObject(node([{ type: 'Ready', status: 'True' }]), 'Node', NOW).cells[1], 'Ready');
    assert.equal(printObject(node([{ type: 'Ready', status: 'True' }], { unschedulable: true }), 'Node', NOW).cells[1], 'Ready,SchedulingDisabled');
    assert.equal(printObject(node([{ type: 'Ready', status: 'False' }]), 'Node', NOW).cells[1], 'NotReady');
    assert.equal(printObject(node([{ type: 'Ready', status: 'Unknown' }]), 'Node', NOW).cells[1], 'NotReady');
    assert.equal(printObject(node([{ type: 'InvalidValue', status: 'True' }]), 'Node', NOW).cells[1], 'Unknown');
    assert.equal(printObject(node([], { unschedulable: true }), 'Node', NOW).cells[1], 'Unknown,SchedulingDisabled');
    const roles = printObject(node([{ type: 'Ready', status: 'True' }], { labels: { 'node-role.kubernetes.io/foo': '', 'node-role.kubernetes.io/bar': '', 'kubernetes.io/role': 'node' } }), 'Node', NOW);
    assert.deepEqual(defaultCells(roles), ['foo', 'Ready', 'bar,foo,node', '40d', 'v1.30.2']);
    assert.equal(printObject(node([{ type: 'Ready', status: 'True' }]), 'Node', NOW).cells[2], '<none>');
    assert.equal(describeRow(roles), 'Ready · bar,foo,node · v1.30.2 · 40d');
    assert.equal(printObject(node([{ type: 'Ready', status: 'False' }]), 'Node', NOW).health.tone, 'error');
  });

  it('PersistentVolumeClaim: STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE (TestPrintPersistentVolumeClaim)', () => {
    const pvc = (spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject => ({ metadata: { name: 'test1', creationTimestamp: ago(0) }, spec, status });
    assert.deepEqual(
      defaultCells(printObject(pvc({ volumeName: 'my-volume', storageClassName: 'standard' }, { phase: 'Bound', accessModes: ['ReadOnlyMany'], capacity: { storage: '4Gi' } }), 'PersistentVolumeClaim', NOW)),
      ['test1', 'Bound', 'my-volume', '4Gi', 'ROX', 'standard', '<unset>', '0s'],
    );
    assert.deepEqual(defaultCells(printObject(pvc({}, { phase: 'Pending', accessModes: ['ReadWriteOnce'], capacity: { storage: '4Gi' } }), 'PersistentVolumeClaim', NOW)), ['test1', 'Pending', '', '', '', '', '<unset>', '0s']);
    const bound = printObject(pvc({ volumeName: 'v', storageClassName: 'fast' }, { phase: 'Bound', accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'], capacity: { storage: '10Gi' } }), 'PersistentVolumeClaim', NOW);
    assert.equal(bound.cells[4], 'RWO,RWX,RWOP');
    assert.equal(describeRow(bound), 'Bound · 10Gi · RWO,RWX,RWOP · fast · 0s');
  });

  it('ConfigMap: DATA AGE, on a ConfigMap recorded from a real API server', () => {
    const cm = transcriptObject('configmap-cm-w1');
    assert.deepEqual(printObject(cm, 'ConfigMap', NOW).cells, ['cm-w1', '1', '6h2m']);
    assert.deepEqual(printObject({ metadata: { name: 'b' }, data: { a: '1' }, binaryData: { b: 'AA==' } }, 'ConfigMap', NOW).cells.slice(0, 2), ['b', '2']);
    assert.equal(describeRow(printObject(cm, 'ConfigMap', NOW)), '1 key · 6h2m');
  });

  it('Secret: TYPE DATA AGE; Namespace: STATUS AGE', () => {
    const secret = printObject({ metadata: { name: 's', creationTimestamp: ago(DAY) }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'x', 'tls.key': 'y' } }, 'Secret', NOW);
    assert.deepEqual(secret.cells, ['s', 'kubernetes.io/tls', '2', '24h']);
    assert.equal(describeRow(secret), 'kubernetes.io/tls · 2 keys · 24h');
    const ns = printObject({ metadata: { name: 'demo', creationTimestamp: ago(13000) }, status: { phase: 'Terminating' } }, 'Namespace', NOW);
    assert.deepEqual(ns.cells, ['demo', 'Terminating', '13s'], 'as kubectl printed it in the 00 transcript');
    assert.equal(ns.health.tone, 'busy');
  });

  it('kinds without a printer: NAME AGE, the description led by a Ready condition or phase', () => {
    const pv = printObject({ metadata: { name: 'pv1', creationTimestamp: ago(DAY) }, status: { phase: 'Available' } }, 'PersistentVolume', NOW);
    assert.deepEqual([pv.columns, pv.cells, describeRow(pv)], [['NAME', 'AGE'], ['pv1', '24h'], 'Available · 24h']);
  });
});
