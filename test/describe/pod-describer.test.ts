import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { describeObject } from '../../src/describe';
import { podObject } from '../../scripts/sandbox/simulated-cluster';
import { transcriptObject } from '../ui/printers/support';

const now = Date.parse('2026-11-22T06:00:00Z');

/** A Pod of a Deployment as a 1.34 server returns it: two containers, a crash, probes, volumes. */
const webPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d9f8b6c4-2xkqp',
    namespace: 'shop',
    uid: '5f0c6e3a-1b2c-4d5e-8f90-123456789abc',
    creationTimestamp: '2026-11-22T05:50:00Z',
    labels: { app: 'web', 'pod-template-hash': '7d9f8b6c4' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"huge":true}', 'prometheus.io/scrape': 'true' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8b6c4', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }],
  },
  spec: {
    nodeName: 'node-1',
    serviceAccountName: 'web',
    priority: 0,
    containers: [
      {
        name: 'web',
        image: 'registry.example.com/shop/web:1.4.2',
        ports: [{ containerPort: 8080, protocol: 'TCP' }],
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        readinessProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 5 },
        env: [
          { name: 'MODE', value: 'prod' },
          { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
        ],
        volumeMounts: [
          { name: 'config', mountPath: '/etc/web', readOnly: true },
          { name: 'kube-api-access-9sstv', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
        ],
      },
      { name: 'sidecar', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] },
    ],
    volumes: [
      { name: 'config', configMap: { name: 'web-config' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'web-data' } },
      { name: 'kube-api-access-9sstv', projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607 } }, { configMap: { name: 'kube-root-ca.crt' } }, { downwardAPI: {} }] } },
    ],
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
  },
  status: {
    phase: 'Running',
    hostIP: '10.0.0.11',
    podIP: '10.244.1.7',
    podIPs: [{ ip: '10.244.1.7' }],
    startTime: '2026-11-22T05:50:01Z',
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
    containerStatuses: [
      {
        name: 'web',
        ready: false,
        restartCount: 6,
        containerID: 'containerd://abc123',
        image: 'registry.example.com/shop/web:1.4.2',
        imageID: 'registry.example.com/shop/web@sha256:0123',
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } },
        lastState: { terminated: { reason: 'Error', exitCode: 1, startedAt: '2026-11-22T05:58:00Z', finishedAt: '2026-11-22T05:59:20Z' } },
      },
      { name: 'sidecar', ready: true, restartCount: 0, containerID: 'containerd://def456', imageID: 'docker.io/library/busybox@sha256:4567', state: { running: { startedAt: '2026-11-22T05:50:03Z' } } },
    ],
    qosClass: 'Burstable',
  },
} as unknown as KubeObject;

function event(name: string, reason: string, message: string, opts: { type?: string; count?: number; first: string; last: string; component?: string }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'shop', creationTimestamp: opts.first },
    involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-7d9f8b6c4-2xkqp', uid: '5f0c6e3a-1b2c-4d5e-8f90-123456789abc' },
    reason,
    message,
    type: opts.type ?? 'Normal',
    count: opts.count ?? 1,
    firstTimestamp: opts.first,
    lastTimestamp: opts.last,
    source: { component: opts.component ?? 'kubelet', host: 'node-1' },
  } as unknown as KubeObject;
}

describe('describe: Pod', () => {
  it('prints the fields kubectl describe pod prints, in its order, aligned as its tabwriter aligns them', () => {
    const { text } = describeObject(webPod, { kind: 'Pod', apiVersion: 'v1', now, events: [] });
    const lines = text.split('\n');
    const head = lines.slice(0, 14);
    assert.deepEqual(head, [
      'Name:             web-7d9f8b6c4-2xkqp',
      'Namespace:        shop',
      'Priority:         0',
      'Service Account:  web',
      'Node:             node-1/10.0.0.11',
      'Start Time:       Sun, 22 Nov 2026 05:50:01 +0000',
      'Labels:           app=web',
      '                  pod-template-hash=7d9f8b6c4',
      'Annotations:      prometheus.io/scrape: true',
      'Status:           Running',
      'IP:               10.244.1.7',
      'IPs:',
      '  IP:           10.244.1.7',
      'Controlled By:  ReplicaSet/web-7d9f8b6c4',
    ]);
    const order = ['Containers:', '  web:', '    Container ID:', '    State:          Waiting', '      Reason:       CrashLoopBackOff', '    Last State:     Terminated', '      Exit Code:    1', '    Ready:          False', '    Restart Count:  6', '    Limits:', '      cpu:     500m', '    Readiness:', '    Environment:', '      MODE:         prod', "      DB_PASSWORD:  <set to the key 'password' in secret 'db'>  Optional: false", '    Mounts:', '      /etc/web from config (ro)', '  sidecar:', '    Command:', '      sh', '    State:          Running', 'Conditions:', '  Type', '  Initialized', 'Volumes:', '  config:', '    Type:', '  data:', '    ClaimName:', 'QoS Class:', 'Node-Selectors:', 'Tolerations:', 'Events:  <none>'];
    let at = 0;
    for (const want of order) {
      const found = lines.findIndex((l, i) => i >= at && l.startsWith(want));
      assert.ok(found >= 0, `"${want}" after line ${at} in\n${text}`);
      at = found + 1;
    }
    assert.match(text, /^Tolerations: {17}node\.kubernetes\.io\/not-ready:NoExecute op=Exists for 300s$/m);
    assert.match(text, /^QoS Class: {19}Burstable$/m);
    assert.match(text, /^ {4}Readiness: {2}http-get http:\/\/:8080\/healthz delay=0s timeout=1s period=5s #success=1 #failure=3$/m);
    assert.doesNotMatch(text, /last-applied-configuration/);
  });

  it('X15 lists the ephemeral (debug) containers after the containers, with their state, as kubectl describe does', () => {
    const pod = structuredClone(webPod) as unknown as { spec: Record<string, unknown>; status: Record<string, unknown> };
    pod.spec.ephemeralContainers = [
      { name: 'debugger-x7kq2', image: 'busybox', targetContainerName: 'web', stdin: true, tty: true, terminationMessagePolicy: 'File' },
      { name: 'debugger-b4n9z', image: 'nicolaka/netshoot', stdin: true, tty: true },
    ];
    pod.status.ephemeralContainerStatuses = [
      { name: 'debugger-x7kq2', ready: false, restartCount: 0, containerID: 'containerd://e1', image: 'docker.io/library/busybox:latest', imageID: 'docker.io/library/busybox@sha256:89ab', state: { running: { startedAt: '2026-11-22T05:59:30Z' } } },
      { name: 'debugger-b4n9z', ready: false, restartCount: 0, image: 'nicolaka/netshoot', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } },
    ];
    const { text } = describeObject(pod as unknown as KubeObject, { kind: 'Pod', apiVersion: 'v1', now, events: [] });
    const lines = text.split('\n');
    const order = ['Containers:', '  web:', '  sidecar:', 'Ephemeral Containers:', '  debugger-x7kq2:', '    Container ID:   containerd://e1', '    Image:          busybox', '    State:          Running', '      Started:', '    Ready:          False', '  debugger-b4n9z:', '    Image:          nicolaka/netshoot', '    State:          Waiting', '      Reason:       ContainerCreating', 'Conditions:'];
    let at = 0;
    for (const want of order) {
      const found = lines.findIndex((l, i) => i >= at && l.startsWith(want));
      assert.ok(found >= 0, `"${want}" after line ${at} in\n${text}`);
      at = found + 1;
    }
  });

  it('links the controller, the node, the ConfigMap and the claim to their descriptions', () => {
    const { text, links } = describeObject(webPod, { kind: 'Pod', apiVersion: 'v1', now, events: [] });
    const lines = text.split('\n');
    const byKind = new Map(links.map((l) => [l.target.kind, l]));
    const owner = byKind.get('ReplicaSet');
    assert.ok(owner);
    assert.deepEqual(owner.target, { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d9f8b6c4' });
    assert.equal(lines[owner.line].slice(owner.start, owner.end), 'ReplicaSet/web-7d9f8b6c4');
    for (const [kind, text_] of [
      ['Node', 'node-1'],
      ['ConfigMap', 'web-config'],
      ['PersistentVolumeClaim', 'web-data'],
    ]) {
      const l = byKind.get(kind);
      assert.ok(l, kind);
      assert.equal(lines[l.line].slice(l.start, l.end), text_);
      assert.equal(l.target.name, text_);
    }
  });

  it('ends with its events, newest last, repeated ones as "x N over M", in their own alignment', () => {
    const events = [
      event('web.2', 'BackOff', 'Back-off restarting failed container web', { type: 'Warning', count: 6, first: '2026-11-22T05:54:00Z', last: '2026-11-22T05:59:30Z' }),
      event('web.1', 'Scheduled', 'Successfully assigned shop/web-7d9f8b6c4-2xkqp to node-1', { first: '2026-11-22T05:50:00Z', last: '2026-11-22T05:50:00Z', component: 'default-scheduler' }),
    ];
    const { text } = describeObject(webPod, { kind: 'Pod', apiVersion: 'v1', now, events });
    const tail = text.trimEnd().split('\n').slice(-5);
    assert.deepEqual(tail, [
      'Events:',
      '  Type     Reason     Age               From               Message',
      '  ----     ------     ----              ----               -------',
      '  Normal   Scheduled  10m               default-scheduler  Successfully assigned shop/web-7d9f8b6c4-2xkqp to node-1',
      '  Warning  BackOff    30s (x6 over 6m)  kubelet            Back-off restarting failed container web',
    ]);
  });

  it('describes the real Pod of a 1.26 transcript (pending, not scheduled) and the sandbox pods', function () {
    const real = transcriptObject('pod-p1-pending');
    const { text } = describeObject(real, { kind: 'Pod', apiVersion: 'v1', now, events: [] });
    assert.match(text, /^Node: +<none>$/m);
    assert.match(text, /^Status: +Pending$/m);
    assert.match(text, /^ {2}p1:\n {4}Image: +busybox\n {4}Port: +<none>\n {4}Host Port: +<none>\n {4}Args:\n {6}sleep\n {6}1\n {4}State: +Waiting\n/m);
    assert.match(text, /^QoS Class: +BestEffort$/m);
    assert.match(text, /^Tolerations: +node\.kubernetes\.io\/not-ready:NoExecute op=Exists for 300s\n +node\.kubernetes\.io\/unreachable:NoExecute op=Exists for 300s$/m);
    const sandbox = podObject('payments', 'ledger-1', { restarts: 6, waitingReason: 'CrashLoopBackOff', owner: { kind: 'ReplicaSet', name: 'ledger-6d5f7c8b9' } }) as unknown as KubeObject;
    const s = describeObject(sandbox, { kind: 'Pod', apiVersion: 'v1', now, events: [] }).text;
    assert.match(s, /^ {4}State: +Waiting\n {6}Reason: +CrashLoopBackOff\n {4}Last State: +Terminated\n {6}Reason: +Error\n {6}Exit Code: +1$/m);
    assert.match(s, /^Controlled By: +ReplicaSet\/ledger-6d5f7c8b9$/m);
  });

  it('a banner goes first, on its own alignment', () => {
    const { text } = describeObject(webPod, { kind: 'Pod', apiVersion: 'v1', now, banner: ['⚠ STALE: something'] });
    assert.ok(text.startsWith('⚠ STALE: something\n\nName:             web-7d9f8b6c4-2xkqp\n'), text.slice(0, 200));
    assert.doesNotMatch(text, /^Events:/m, 'no Events section while the events are not known');
  });
});
