import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { describeObject, formatEndpoints, formatEndpointSlices } from '../../src/describe';
import { describeEndpointSlice } from '../../src/describe/endpointslice-describer';
import { describeService } from '../../src/describe/service-describer';

const obj = (o: object) => o as unknown as KubeObject;
const now = Date.parse('2026-11-22T06:00:00Z');

/** A slice as the EndpointSlice controller writes it for Service shop/web (port `http` → 8080). */
function slice(name: string, endpoints: object[], ports: object[] = [{ name: 'http', port: 8080, protocol: 'TCP' }]): KubeObject {
  return obj({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      namespace: 'shop',
      name,
      labels: { 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io', 'kubernetes.io/service-name': 'web' },
      annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': '2026-11-22T05:59:00Z' },
    },
    addressType: 'IPv4',
    endpoints,
    ports,
  });
}

const ready = (ip: string, pod: string, extra: object = {}) => ({ addresses: [ip], conditions: { ready: true, serving: true, terminating: false }, nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'shop', name: pod, uid: `uid-${pod}` }, ...extra });
const notReady = (ip: string, pod: string) => ({ addresses: [ip], conditions: { ready: false, serving: false, terminating: false }, nodeName: 'node-2', targetRef: { kind: 'Pod', namespace: 'shop', name: pod } });

describe('describe: EndpointSlices (kubectl describe endpointslice, the Endpoints line of a Service)', () => {
  it('the EndpointSlice describer prints what kubectl describe endpointslice prints, in its alignment, TargetRef linked', () => {
    const d = describeEndpointSlice(slice('web-abc12', [ready('10.244.1.7', 'web-7d9f8b6c4-2xkqp', { zone: 'zone-a' }), notReady('10.244.2.9', 'web-7d9f8b6c4-q8m5z')])).render();
    // Go's tabwriter: a line without a tab ("Ports:", "Conditions:") ends a column block.
    assert.equal(
      d.text,
      [
        'Name:         web-abc12',
        'Namespace:    shop',
        'Labels:       endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io',
        '              kubernetes.io/service-name=web',
        'Annotations:  endpoints.kubernetes.io/last-change-trigger-time: 2026-11-22T05:59:00Z',
        'AddressType:  IPv4',
        'Ports:',
        '  Name  Port  Protocol',
        '  ----  ----  --------',
        '  http  8080  TCP',
        'Endpoints:',
        '  - Addresses:  10.244.1.7',
        '    Conditions:',
        '      Ready:    true',
        '    Hostname:   <unset>',
        '    TargetRef:  Pod/web-7d9f8b6c4-2xkqp',
        '    NodeName:   node-1',
        '    Zone:       zone-a',
        '  - Addresses:  10.244.2.9',
        '    Conditions:',
        '      Ready:    false',
        '    Hostname:   <unset>',
        '    TargetRef:  Pod/web-7d9f8b6c4-q8m5z',
        '    NodeName:   node-2',
        '    Zone:       <unset>',
        '',
      ].join('\n'),
    );
    const targets = d.links.map((l) => `${d.text.split('\n')[l.line].slice(l.start, l.end)} -> ${l.target.apiVersion} ${l.target.kind} ${l.target.namespace}/${l.target.name}`);
    assert.deepEqual(targets, ['Pod/web-7d9f8b6c4-2xkqp -> v1 Pod shop/web-7d9f8b6c4-2xkqp', 'Pod/web-7d9f8b6c4-q8m5z -> v1 Pod shop/web-7d9f8b6c4-q8m5z']);
  });

  it('a slice without ports or endpoints says <unset> and <none> on the title line, as kubectl does', () => {
    const d = describeObject(slice('web-empty', [], []), { kind: 'EndpointSlice', apiVersion: 'discovery.k8s.io/v1', now, events: [] });
    assert.match(d.text, /^AddressType: +IPv4\nPorts: <unset>\nEndpoints: <none>\n/m);
  });

  it("the Endpoints line: ready addresses with the slice port of the Service port's name, three at most, then + N more...", () => {
    const a = slice('web-a', [ready('10.0.0.1', 'p1'), notReady('10.0.0.2', 'p2'), ready('10.0.0.3', 'p3')]);
    const b = slice('web-b', [ready('10.0.0.4', 'p4'), ready('10.0.0.5', 'p5'), { addresses: ['10.0.0.6'], conditions: {} }]);
    assert.equal(formatEndpointSlices([a], 'http'), '10.0.0.1:8080,10.0.0.3:8080');
    assert.equal(formatEndpointSlices([a, b], 'http'), '10.0.0.1:8080,10.0.0.3:8080,10.0.0.4:8080 + 2 more...', 'an endpoint without a Ready condition counts as ready');
    assert.equal(formatEndpointSlices([b, slice('web-c', [notReady('10.0.0.8', 'p8')])], 'http'), '10.0.0.4:8080,10.0.0.5:8080,10.0.0.6:8080 + 0 more...', "kubectl's quirk: a not-ready endpoint after three ready ones still says more");
    assert.equal(formatEndpointSlices([a], 'metrics'), '', 'no slice port of that name: nothing (kubectl prints an empty value)');
    assert.equal(formatEndpointSlices([], 'http'), '<none>');
    assert.equal(formatEndpointSlices([slice('headless', [ready('10.0.0.7', 'p7')], [])], ''), '10.0.0.7', 'a headless slice without ports: addresses alone');
    assert.equal(formatEndpointSlices([slice('v6', [ready('fd00::7', 'p7')], [{ name: '', port: 80, protocol: 'TCP' }])], ''), '[fd00::7]:80');
    const endpoints = obj({ metadata: { namespace: 'shop', name: 'web' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.3' }], notReadyAddresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }] });
    assert.equal(formatEndpoints(endpoints, 'http'), '10.0.0.1:8080,10.0.0.3:8080');
    assert.equal(formatEndpoints(undefined, 'http'), '<none>');
  });

  it('a Service with its slices: kubectl 1.33+ lines (an Endpoints line per port), then each slice linked', () => {
    const svc = obj({
      metadata: { namespace: 'shop', name: 'web', labels: { app: 'web' } },
      spec: { type: 'ClusterIP', clusterIP: '10.96.12.7', clusterIPs: ['10.96.12.7'], ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'], selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' },
    });
    const slices = [slice('web-k2x9q', [ready('10.244.1.7', 'p1')]), slice('web-abc12', [ready('10.244.2.9', 'p2')])];
    const d = describeService(svc, now, { endpointSlices: slices }).render();
    assert.equal(
      d.text,
      [
        'Name:                     web',
        'Namespace:                shop',
        'Labels:                   app=web',
        'Annotations:              <none>',
        'Selector:                 app=web',
        'Type:                     ClusterIP',
        'IP Family Policy:         SingleStack',
        'IP Families:              IPv4',
        'IP:                       10.96.12.7',
        'IPs:                      10.96.12.7',
        'Port:                     http  80/TCP',
        'TargetPort:               8080/TCP',
        'Endpoints:                10.244.1.7:8080,10.244.2.9:8080',
        'EndpointSlices:           web-abc12',
        '                          web-k2x9q',
        'Session Affinity:         None',
        'Internal Traffic Policy:  Cluster',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      d.links.map((l) => [l.line, d.text.split('\n')[l.line].slice(l.start, l.end), l.target]),
      [
        [13, 'web-abc12', { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', namespace: 'shop', name: 'web-abc12' }],
        [14, 'web-k2x9q', { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', namespace: 'shop', name: 'web-k2x9q' }],
      ],
    );
    const none = describeService(svc, now, { endpointSlices: [] }).render().text;
    assert.match(none, /^Endpoints: +<none>\nEndpointSlices: +<none>$/m);
  });

  it('a Service on a server without EndpointSlices: the Endpoints line from the core Endpoints object, linked to it', () => {
    const svc = obj({ metadata: { namespace: 'shop', name: 'web' }, spec: { clusterIP: '10.96.12.7', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } });
    const endpoints = obj({ metadata: { namespace: 'shop', name: 'web' }, subsets: [{ addresses: [{ ip: '10.244.1.7' }], ports: [{ port: 8080, protocol: 'TCP' }] }] });
    const d = describeService(svc, now, { endpoints }).render();
    assert.match(d.text, /^Endpoints: +10\.244\.1\.7:8080$/m);
    assert.doesNotMatch(d.text, /EndpointSlices/);
    const link = d.links.find((l) => l.target.kind === 'Endpoints');
    assert.deepEqual(link && [d.text.split('\n')[link.line].slice(link.start, link.end), link.target], ['10.244.1.7:8080', { apiVersion: 'v1', kind: 'Endpoints', namespace: 'shop', name: 'web' }]);
    assert.match(describeService(svc, now, { endpoints: null }).render().text, /^Endpoints: +<none>$/m);
  });
});
