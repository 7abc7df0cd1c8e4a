import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { describeObject, type Description } from '../../src/describe';
import { deploymentObject, replicaSetObject } from '../../scripts/sandbox/simulated-cluster';
import { transcriptObject } from '../ui/printers/support';

const now = Date.parse('2026-11-22T06:00:00Z');
const obj = (o: object) => o as unknown as KubeObject;
const describe_ = (o: object, kind: string, apiVersion: string): Description => describeObject(obj(o), { kind, apiVersion, now, events: [] });
const field = (text: string, name: string) => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(text)?.[1];
const linkText = (d: Description, kind: string) => {
  const l = d.links.find((x) => x.target.kind === kind);
  return l && { text: d.text.split('\n')[l.line].slice(l.start, l.end), target: l.target };
};

describe('describe: dedicated describers', () => {
  it('Deployment: replicas line, strategy, pod template, conditions, and the new ReplicaSet linked', () => {
    const d = describe_({ ...deploymentObject('shop', 'web', 2, 1, { app: 'web' }, 'web:2', { replicaSet: 'web-7d9f8b6c4' }), metadata: { namespace: 'shop', name: 'web', labels: { app: 'web' }, annotations: { 'deployment.kubernetes.io/revision': '3' }, creationTimestamp: '2026-11-22T05:00:00Z' } }, 'Deployment', 'apps/v1');
    assert.equal(field(d.text, 'Replicas'), '2 desired | 2 updated | 2 total | 1 available | 1 unavailable');
    assert.equal(field(d.text, 'Annotations'), 'deployment.kubernetes.io/revision: 3');
    assert.equal(field(d.text, 'StrategyType'), 'RollingUpdate');
    assert.equal(field(d.text, 'RollingUpdateStrategy'), '25% max unavailable, 25% max surge');
    assert.match(d.text, /^Pod Template:\n {2}Labels: +app=web\n {2}Containers:\n {3}main:\n {4}Image: +web:2\n/m);
    assert.match(d.text, /^ {2}Available +False +MinimumReplicasUnavailable$/m);
    assert.deepEqual(linkText(d, 'ReplicaSet'), { text: 'web-7d9f8b6c4', target: { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d9f8b6c4' } });
  });

  it('ReplicaSet: selector, replicas, and Controlled By linked to its Deployment', () => {
    const d = describe_(replicaSetObject('shop', 'web-7d9f8b6c4', { app: 'web', 'pod-template-hash': '7d9f8b6c4' }, 2, 2, { kind: 'Deployment', name: 'web', uid: 'u' }), 'ReplicaSet', 'apps/v1');
    assert.equal(field(d.text, 'Selector'), 'app=web,pod-template-hash=7d9f8b6c4');
    assert.equal(field(d.text, 'Replicas'), '2 current / 2 desired');
    assert.deepEqual(linkText(d, 'Deployment'), { text: 'Deployment/web', target: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' } });
  });

  it('Job links to its CronJob; a CronJob links its active Jobs', () => {
    const job = describe_(
      {
        metadata: { namespace: 'batch', name: 'nightly-29013840', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: 'u', controller: true }] },
        spec: { parallelism: 1, completions: 1, backoffLimit: 6, template: { spec: { containers: [{ name: 'main', image: 'report:1' }] } } },
        status: { startTime: '2026-11-22T05:00:00Z', completionTime: '2026-11-22T05:01:30Z', succeeded: 1 },
      },
      'Job',
      'batch/v1',
    );
    assert.equal(field(job.text, 'Duration'), '90s');
    assert.equal(field(job.text, 'Pods Statuses'), '0 Active (0 Ready) / 1 Succeeded / 0 Failed');
    assert.deepEqual(linkText(job, 'CronJob')?.target, { apiVersion: 'batch/v1', kind: 'CronJob', namespace: 'batch', name: 'nightly' });
    const cron = describe_({ metadata: { namespace: 'batch', name: 'nightly' }, spec: { schedule: '0 2 * * *', jobTemplate: { spec: { template: { spec: { containers: [] } } } } }, status: { active: [{ kind: 'Job', namespace: 'batch', name: 'nightly-29013840' }] } }, 'CronJob', 'batch/v1');
    assert.equal(field(cron.text, 'Schedule'), '0 2 * * *');
    assert.equal(linkText(cron, 'Job')?.text, 'nightly-29013840');
  });

  it("Service: ports, and its endpoints unknown until listed; PVC: its volume linked; Ingress: its backends' Services linked", () => {
    const svc = describe_({ metadata: { namespace: 'shop', name: 'web' }, spec: { type: 'ClusterIP', clusterIP: '10.96.12.7', clusterIPs: ['10.96.12.7'], selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] } }, 'Service', 'v1');
    assert.equal(field(svc.text, 'Selector'), 'app=web');
    assert.equal(field(svc.text, 'Port'), 'http  80/TCP');
    assert.equal(field(svc.text, 'TargetPort'), '8080/TCP');
    assert.equal(field(svc.text, 'Endpoints'), '<unknown>', 'without its EndpointSlices listed, nothing is claimed');
    assert.equal(field(svc.text, 'EndpointSlices'), undefined);
    const pvc = describe_({ metadata: { namespace: 'shop', name: 'data', finalizers: ['kubernetes.io/pvc-protection'] }, spec: { storageClassName: 'standard', volumeName: 'pvc-0a1b', accessModes: ['ReadWriteOnce'] }, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } }, 'PersistentVolumeClaim', 'v1');
    assert.equal(field(pvc.text, 'Status'), 'Bound');
    assert.equal(field(pvc.text, 'Access Modes'), 'RWO');
    assert.deepEqual(linkText(pvc, 'PersistentVolume'), { text: 'pvc-0a1b', target: { apiVersion: 'v1', kind: 'PersistentVolume', namespace: '', name: 'pvc-0a1b' } });
    const ing = describe_({ metadata: { namespace: 'shop', name: 'web' }, spec: { ingressClassName: 'nginx', rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } }, 'Ingress', 'networking.k8s.io/v1');
    assert.match(ing.text, /^ {2}shop\.example\.com\n {4} +\/ +web:80$/m);
    assert.equal(linkText(ing, 'Service')?.text, 'web');
  });

  it('Secret: keys and byte sizes, never a value; ConfigMap of a real transcript: keys only', function () {
    const secret = describe_({ metadata: { namespace: 'shop', name: 'db' }, type: 'Opaque', data: { password: Buffer.from('hunter2-very-secret').toString('base64'), user: Buffer.from('app').toString('base64') } }, 'Secret', 'v1');
    assert.match(secret.text, /^Type: +Opaque$/m);
    assert.match(secret.text, /^Data\n====\npassword: +19 bytes\nuser: +3 bytes$/m);
    assert.doesNotMatch(secret.text, /hunter2|aHVudGVy|app\b/);
    const cm = transcriptObject('configmap-cm-w1');
    const d = describeObject(cm, { kind: 'ConfigMap', apiVersion: 'v1', now, events: [] });
    assert.match(d.text, /^Name: +cm-w1\nNamespace: +default\nLabels: +<none>\nAnnotations: +<none>\n\nData\n====\nk: +1 bytes\n\nBinaryData\n====\n\nEvents: +<none>\n$/);
  });

  it('Node: roles, taints, conditions table, addresses, capacity', () => {
    const d = describe_(
      {
        metadata: { name: 'node-1', labels: { 'node-role.kubernetes.io/control-plane': '' } },
        spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], podCIDR: '10.244.0.0/24' },
        status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: '2026-11-22T05:59:00Z', lastTransitionTime: '2026-11-22T05:00:00Z' }], addresses: [{ type: 'InternalIP', address: '10.0.0.11' }], capacity: { cpu: '4', memory: '8Gi' } },
      },
      'Node',
      'v1',
    );
    assert.equal(field(d.text, 'Roles'), 'control-plane');
    assert.equal(field(d.text, 'Taints'), 'node-role.kubernetes.io/control-plane:NoSchedule');
    assert.match(d.text, /^ {2}Ready +True +Sun, 22 Nov 2026 05:59:00 \+0000 +Sun, 22 Nov 2026 05:00:00 \+0000 +KubeletReady +kubelet is posting ready status$/m);
    assert.match(d.text, /^Addresses:\n {2}InternalIP: +10\.0\.0\.11$/m);
  });

  it('any other kind: the generic describer (metadata, then spec and status as indented Title Case keys)', () => {
    const d = describe_({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'shop', name: 'blue-widget', uid: 'u1', creationTimestamp: '2026-11-22T05:00:00Z', managedFields: [{ manager: 'x' }] }, spec: { size: 3, color: 'blue', podIP: '1.2.3.4' }, status: { phase: 'Ready' } }, 'Widget', 'example.com/v1');
    assert.equal(field(d.text, 'API Version'), 'example.com/v1');
    assert.equal(field(d.text, 'Kind'), 'Widget');
    assert.match(d.text, /^Metadata:\n {2}Uid: +u1\n {2}Creation Timestamp: +2026-11-22T05:00:00Z\nSpec:\n {2}Size: +3\n {2}Color: +blue\n {2}Pod IP: +1\.2\.3\.4\nStatus:\n {2}Phase: +Ready\nEvents: +<none>\n$/m);
    assert.doesNotMatch(d.text, /Managed Fields/);
  });
});
