/**
 * The objects the bench server serves, rendered once as the JSON bytes a kube-apiserver 1.26
 * would write: metadata first in the server's key order, managedFields as the field managers
 * leave them, no kind/apiVersion on list items (watch events carry them).
 * Everything is drawn from a seeded PRNG, so every run serves the same bytes.
 */

import { seededRandom } from '../../src/base/clock';

export interface ResourceSpec {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

/** One object: where it lives, and its JSON split around its resourceVersion. */
export interface RenderedObject {
  namespace: string;
  name: string;
  /** JSON text before the resourceVersion digits. */
  head: string;
  /** JSON text after them. */
  tail: string;
  rv: number;
  /** head + rv + tail, as a list item. */
  json: Buffer;
}

export function groupVersion(r: Pick<ResourceSpec, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

export function collectionPath(r: ResourceSpec, namespace?: string): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return `${base}${r.namespaced && namespace ? `/namespaces/${namespace}` : ''}/${r.resource}`;
}


function uuid(rnd: () => number): string {
  let s = '';
  for (let i = 0; i < 32; i++) s += Math.floor(rnd() * 16).toString(16);
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20)}`;
}

function hex(rnd: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rnd() * 16).toString(16);
  return s;
}

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(' ');

function text(rnd: () => number, chars: number): string {
  let s = '';
  while (s.length < chars) s += `${WORDS[Math.floor(rnd() * WORDS.length)]}${Math.floor(rnd() * 1000)} `;
  return s.slice(0, chars);
}

function time(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const RV_MARK = '\u0000RV\u0000';

/** Splits the object's JSON around its resourceVersion placeholder. */
function render(obj: Record<string, unknown>, namespace: string, name: string, rv: number): RenderedObject {
  const json = JSON.stringify(obj);
  const marker = JSON.stringify(RV_MARK).slice(1, -1);
  const at = json.indexOf(marker);
  const head = json.slice(0, at);
  const tail = json.slice(at + marker.length);
  return { namespace, name, head, tail, rv, json: Buffer.from(head + rv + tail) };
}

const T0 = Date.parse('2026-05-04T09:30:00Z');

/**
 * ConfigMaps of about 1 KiB of JSON each (B1, B2), as a Helm release leaves them: labels and
 * annotations, two data keys, and the managedFields of helm and of a later kubectl patch.
 */
export function configMaps(count: number, namespace: string, firstRv: number, seed = 1): RenderedObject[] {
  const rnd = seededRandom(seed);
  const out: RenderedObject[] = [];
  for (let i = 0; i < count; i++) {
    const name = `app-config-${String(i).padStart(5, '0')}`;
    const created = time(T0 + i * 1000);
    const obj = {
      metadata: {
        name,
        namespace,
        uid: uuid(rnd),
        resourceVersion: RV_MARK,
        creationTimestamp: created,
        labels: {
          'app.kubernetes.io/instance': `shop-${i % 50}`,
          'app.kubernetes.io/managed-by': 'Helm',
          'app.kubernetes.io/name': 'storefront',
        },
        annotations: { 'meta.helm.sh/release-name': `shop-${i % 50}`, 'meta.helm.sh/release-namespace': namespace },
        managedFields: [
          {
            manager: 'helm',
            operation: 'Update',
            apiVersion: 'v1',
            time: created,
            fieldsType: 'FieldsV1',
            fieldsV1: {
              'f:data': { '.': {}, 'f:application.yaml': {}, 'f:feature-flags': {} },
              'f:metadata': {
                'f:annotations': { '.': {}, 'f:meta.helm.sh/release-name': {}, 'f:meta.helm.sh/release-namespace': {} },
                'f:labels': { '.': {}, 'f:app.kubernetes.io/instance': {}, 'f:app.kubernetes.io/managed-by': {}, 'f:app.kubernetes.io/name': {} },
              },
            },
          },
          {
            manager: 'kubectl-patch',
            operation: 'Update',
            apiVersion: 'v1',
            time: time(T0 + i * 1000 + 60_000),
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { 'f:feature-flags': {} } },
          },
        ],
      },
      data: {
        'application.yaml': `server:\n  port: ${8000 + (i % 1000)}\ncache:\n  ttl: ${i % 600}s\nnotes: ${text(rnd, 60)}\n`,
        'feature-flags': `checkout=${i % 2 === 0},search=${i % 3 === 0},build=${hex(rnd, 12)}`,
      },
    };
    out.push(render(obj, namespace, name, firstRv + i));
  }
  return out;
}

/**
 * Pods of a Deployment as the scheduler and kubelet leave them (B3): owner reference, projected
 * service-account volume, tolerations, status with conditions and container status, and the
 * managedFields of kube-controller-manager and kubelet. About 4 KiB of JSON each.
 */
export function pods(count: number, namespaces: number, firstRv: number, seed = 3, nsOffset = 0): RenderedObject[] {
  const rnd = seededRandom(seed);
  const perNs = Math.ceil(count / namespaces);
  const out: RenderedObject[] = [];
  for (let i = 0; i < count; i++) {
    const nsIndex = Math.floor(i / perNs) + nsOffset;
    const namespace = `team-${String(nsIndex).padStart(4, '0')}`;
    const app = `svc-${nsIndex % 97}-${Math.floor((i % perNs) / 10)}`;
    const hash = hex(rnd, 10).replace(/[0-9]/g, (d) => 'bcdfghjklm'[Number(d)]);
    const name = `${app}-${hash}-${hex(rnd, 5)}`;
    const created = T0 + i * 37;
    const node = `node-${String(Math.floor(rnd() * 300)).padStart(3, '0')}.zone-${'abc'[i % 3]}.cluster.internal`;
    const podIp = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const image = `registry.example.com/${app}:1.${i % 40}.${i % 7}`;
    const ready = time(created + 9000);
    const obj = {
      metadata: {
        name,
        generateName: `${app}-${hash}-`,
        namespace,
        uid: uuid(rnd),
        resourceVersion: RV_MARK,
        creationTimestamp: time(created),
        labels: { app, 'pod-template-hash': hash, 'app.kubernetes.io/part-of': `team-${nsIndex}` },
        annotations: { 'kubectl.kubernetes.io/restartedAt': time(created - 86_400_000) },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-${hash}`, uid: uuid(rnd), controller: true, blockOwnerDeletion: true },
        ],
        managedFields: [
          {
            manager: 'kube-controller-manager',
            operation: 'Update',
            apiVersion: 'v1',
            time: time(created),
            fieldsType: 'FieldsV1',
            fieldsV1: {
              'f:metadata': {
                'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/restartedAt': {} },
                'f:generateName': {},
                'f:labels': { '.': {}, 'f:app': {}, 'f:app.kubernetes.io/part-of': {}, 'f:pod-template-hash': {} },
                'f:ownerReferences': { '.': {}, [`k:{"uid":"${uuid(rnd)}"}`]: {} },
              },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"app"}': {
                    '.': {},
                    'f:env': { '.': {}, 'k:{"name":"LOG_LEVEL"}': { '.': {}, 'f:name': {}, 'f:value': {} }, 'k:{"name":"PORT"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                    'f:image': {},
                    'f:imagePullPolicy': {},
                    'f:name': {},
                    'f:ports': { '.': {}, 'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} } },
                    'f:resources': { '.': {}, 'f:limits': { '.': {}, 'f:memory': {} }, 'f:requests': { '.': {}, 'f:cpu': {}, 'f:memory': {} } },
                    'f:terminationMessagePath': {},
                    'f:terminationMessagePolicy': {},
                  },
                },
                'f:dnsPolicy': {},
                'f:enableServiceLinks': {},
                'f:restartPolicy': {},
                'f:schedulerName': {},
                'f:securityContext': {},
                'f:terminationGracePeriodSeconds': {},
              },
            },
          },
          {
            manager: 'kubelet',
            operation: 'Update',
            apiVersion: 'v1',
            time: ready,
            fieldsType: 'FieldsV1',
            fieldsV1: {
              'f:status': {
                'f:conditions': {
                  'k:{"type":"ContainersReady"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
                  'k:{"type":"Initialized"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
                  'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
                },
                'f:containerStatuses': {},
                'f:hostIP': {},
                'f:phase': {},
                'f:podIP': {},
                'f:podIPs': { '.': {}, [`k:{"ip":"${podIp}"}`]: { '.': {}, 'f:ip': {} } },
                'f:startTime': {},
              },
            },
            subresource: 'status',
          },
        ],
      },
      spec: {
        volumes: [
          {
            name: `kube-api-access-${hex(rnd, 5)}`,
            projected: {
              sources: [
                { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
                { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
                { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
              ],
              defaultMode: 420,
            },
          },
        ],
        containers: [
          {
            name: 'app',
            image,
            ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
            env: [
              { name: 'PORT', value: '8080' },
              { name: 'LOG_LEVEL', value: i % 5 === 0 ? 'debug' : 'info' },
            ],
            resources: { limits: { memory: '256Mi' }, requests: { cpu: `${50 + (i % 8) * 25}m`, memory: '128Mi' } },
            volumeMounts: [{ name: 'kube-api-access', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        serviceAccountName: 'default',
        serviceAccount: 'default',
        nodeName: node,
        securityContext: {},
        schedulerName: 'default-scheduler',
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
        priority: 0,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
      },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: time(created + 1000) },
          { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: ready },
          { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: ready },
          { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: time(created) },
        ],
        hostIP: `192.168.${(i >> 8) & 255}.${i & 255}`,
        podIP: podIp,
        podIPs: [{ ip: podIp }],
        startTime: time(created + 1000),
        containerStatuses: [
          {
            name: 'app',
            state: { running: { startedAt: time(created + 8000) } },
            lastState: {},
            ready: true,
            restartCount: i % 13 === 0 ? 1 : 0,
            image,
            imageID: `${image.split(':')[0]}@sha256:${hex(rnd, 64)}`,
            containerID: `containerd://${hex(rnd, 64)}`,
            started: true,
          },
        ],
        qosClass: 'Burstable',
      },
    };
    out.push(render(obj, namespace, name, firstRv + i));
  }
  return out;
}

/** Small objects for the quiet types of B6 (any kind: the reference deserializes leniently). */
export function smallObjects(kind: string, count: number, namespace: string | undefined, firstRv: number, seed: number): RenderedObject[] {
  const rnd = seededRandom(seed);
  const out: RenderedObject[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${kind.toLowerCase()}-${i}`;
    const metadata: Record<string, unknown> = { name };
    if (namespace) metadata.namespace = namespace;
    Object.assign(metadata, { uid: uuid(rnd), resourceVersion: RV_MARK, creationTimestamp: time(T0 + i * 1000), labels: { app: 'quiet' } });
    out.push(render({ metadata }, namespace ?? '', name, firstRv + i));
  }
  return out;
}

/** A watch event line for `obj` at resourceVersion `rv`. */
export function eventLine(type: string, r: ResourceSpec, obj: RenderedObject, rv: number): string {
  // `head` starts with {"metadata":...; watch objects carry kind and apiVersion first.
  return `{"type":"${type}","object":{"kind":"${r.kind}","apiVersion":"${groupVersion(r)}",${obj.head.slice(1)}${rv}${obj.tail}}\n`;
}
