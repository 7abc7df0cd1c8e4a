import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, rec, str, writeAnnotations, writeMap, type Json } from './describe-format';

/**
 * kubectl describe service. The Endpoints line links to the Service's Endpoints object (same
 * name); its EndpointSlices are named by the `kubernetes.io/service-name` label, said in a line.
 */
export function describeService(svc: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((svc as Json).spec);
  const status = rec((svc as Json).status);
  const namespace = svc.metadata.namespace ?? '';
  const name = svc.metadata.name ?? '';
  w.line(0, 'Name:', name);
  w.line(0, 'Namespace:', namespace);
  writeMap(w, 0, 'Labels', svc.metadata.labels);
  writeAnnotations(w, svc);
  const selector = Object.entries(rec(spec.selector)).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${String(v)}`);
  w.line(0, 'Selector:', selector.length ? selector.join(',') : '<none>');
  const type = str(spec.type) || 'ClusterIP';
  w.line(0, 'Type:', type);
  if (str(spec.ipFamilyPolicy)) w.line(0, 'IP Family Policy:', str(spec.ipFamilyPolicy));
  const families = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as unknown[]).map(str) : [];
  if (families.length) w.line(0, 'IP Families:', families.join(','));
  w.line(0, 'IP:', str(spec.clusterIP) || '<none>');
  const ips = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]).map(str) : [];
  if (ips.length) w.line(0, 'IPs:', ips.join(','));
  const external = Array.isArray(spec.externalIPs) ? (spec.externalIPs as unknown[]).map(str) : [];
  if (external.length) w.line(0, 'External IPs:', external.join(','));
  const ingress = arr(rec(status.loadBalancer).ingress).map((i) => str(i.ip) || str(i.hostname));
  if (ingress.length) w.line(0, 'LoadBalancer Ingress:', ingress.join(', '));
  if (type === 'ExternalName') w.line(0, 'External Name:', str(spec.externalName));
  const ports = arr(spec.ports);
  if (ports.length === 0) {
    w.line(0, 'Port:', '<unset>  <none>/TCP');
    w.line(0, 'TargetPort:', '<none>/TCP');
  }
  for (const p of ports) {
    const proto = str(p.protocol) || 'TCP';
    w.line(0, 'Port:', `${str(p.name) || '<unset>'}  ${str(p.port)}/${proto}`);
    w.line(0, 'TargetPort:', `${str(p.targetPort) || str(p.port)}/${proto}`);
    if (typeof p.nodePort === 'number') w.line(0, 'NodePort:', `${str(p.name) || '<unset>'}  ${p.nodePort}/${proto}`);
  }
  if (type !== 'ExternalName') {
    w.line(0, 'Endpoints:', `Endpoints/${name}`).link(`Endpoints/${name}`, { apiVersion: 'v1', kind: 'Endpoints', namespace, name });
    w.line(0, 'EndpointSlices:', `kubernetes.io/service-name=${name}`);
  }
  w.line(0, 'Session Affinity:', str(spec.sessionAffinity) || 'None');
  if (str(spec.externalTrafficPolicy)) w.line(0, 'External Traffic Policy:', str(spec.externalTrafficPolicy));
  if (str(spec.internalTrafficPolicy)) w.line(0, 'Internal Traffic Policy:', str(spec.internalTrafficPolicy));
  return w;
}
