import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, rec, str, writeAnnotations, writeMap, type Json } from './describe-format';
import { formatEndpoints, formatEndpointSlices } from './endpoints-format';
import type { RelatedObjects } from './related-objects';

/**
 * kubectl describe service (1.33+): the Service's fields and, per port, an `Endpoints:` line
 * made from its EndpointSlices as kubectl makes it (`related.endpointSlices`), or from the core
 * Endpoints object where the server has no EndpointSlices (`related.endpoints`, linked to that
 * object); `<unknown>` while neither is known. Then an `EndpointSlices:` line per slice, each
 * name a link to its own description (not in kubectl, which does not name them).
 */
export function describeService(svc: KubeObject, _now = 0, related: RelatedObjects = {}): DescribeWriter {
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
  w.line(0, 'IP Families:', families.length ? families.join(',') : '<none>');
  w.line(0, 'IP:', str(spec.clusterIP));
  const ips = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]).map(str) : [];
  w.line(0, 'IPs:', ips.length ? ips.join(',') : '<none>');
  const external = Array.isArray(spec.externalIPs) ? (spec.externalIPs as unknown[]).map(str) : [];
  if (external.length) w.line(0, 'External IPs:', external.join(','));
  if (str(spec.loadBalancerIP)) w.line(0, 'Desired LoadBalancer IP:', str(spec.loadBalancerIP));
  if (str(spec.externalName)) w.line(0, 'External Name:', str(spec.externalName));
  const ingress = arr(rec(status.loadBalancer).ingress).map((i) => (str(i.ip) ? `${str(i.ip)}${str(i.ipMode) ? ` (${str(i.ipMode)})` : ''}` : str(i.hostname)));
  if (ingress.length) w.line(0, 'LoadBalancer Ingress:', ingress.join(', '));
  const endpointsObject = related.endpoints ? { apiVersion: 'v1', kind: 'Endpoints', namespace, name } : undefined;
  for (const p of arr(spec.ports)) {
    const proto = str(p.protocol) || 'TCP';
    const portName = str(p.name);
    w.line(0, 'Port:', portName || '<unset>', `${str(p.port)}/${proto}`);
    w.line(0, 'TargetPort:', `${str(p.targetPort) || str(p.port)}/${proto}`);
    if (typeof p.nodePort === 'number' && p.nodePort !== 0) w.line(0, 'NodePort:', portName || '<unset>', `${p.nodePort}/${proto}`);
    const endpoints = related.endpointSlices
      ? formatEndpointSlices(related.endpointSlices, portName)
      : related.endpoints !== undefined
        ? formatEndpoints(related.endpoints ?? undefined, portName)
        : '<unknown>';
    w.line(0, 'Endpoints:', endpoints);
    if (endpointsObject) w.link(endpoints, endpointsObject);
  }
  if (related.endpointSlices) {
    const slices = [...related.endpointSlices].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    if (slices.length === 0) w.line(0, 'EndpointSlices:', '<none>');
    slices.forEach((slice, i) => {
      const sliceName = slice.metadata.name ?? '';
      w.line(0, i === 0 ? 'EndpointSlices:' : '', sliceName).link(sliceName, { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', namespace, name: sliceName });
    });
  }
  w.line(0, 'Session Affinity:', str(spec.sessionAffinity) || 'None');
  if (str(spec.externalTrafficPolicy)) w.line(0, 'External Traffic Policy:', str(spec.externalTrafficPolicy));
  if (str(spec.internalTrafficPolicy)) w.line(0, 'Internal Traffic Policy:', str(spec.internalTrafficPolicy));
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort !== 0) w.line(0, 'HealthCheck NodePort:', String(spec.healthCheckNodePort));
  const ranges = Array.isArray(spec.loadBalancerSourceRanges) ? (spec.loadBalancerSourceRanges as unknown[]).map(str) : [];
  if (ranges.length) w.line(0, 'LoadBalancer Source Ranges:', ranges.join(','));
  if (str(spec.trafficDistribution)) w.line(0, 'Traffic Distribution:', str(spec.trafficDistribution));
  return w;
}
