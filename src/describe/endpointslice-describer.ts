import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, rec, str, writeMeta, type Json } from './describe-format';

/**
 * kubectl describe endpointslice (discovery.k8s.io/v1): AddressType, the Ports table, then per
 * endpoint its Addresses, Conditions (Ready), Hostname, TargetRef, NodeName and Zone, `<unset>`
 * for what is not set. The TargetRef links to the object it names (the Pod behind the address).
 */
export function describeEndpointSlice(slice: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const s = slice as unknown as Json;
  const namespace = slice.metadata.namespace ?? '';
  writeMeta(w, slice);
  w.line(0, 'AddressType:', str(s.addressType));
  const ports = arr(s.ports);
  if (ports.length === 0) {
    w.line(0, 'Ports: <unset>');
  } else {
    w.line(0, 'Ports:');
    w.line(1, 'Name', 'Port', 'Protocol');
    w.line(1, '----', '----', '--------');
    for (const p of ports) w.line(1, str(p.name) || '<unset>', typeof p.port === 'number' ? String(p.port) : '<unset>', str(p.protocol));
  }
  const endpoints = arr(s.endpoints);
  if (endpoints.length === 0) {
    w.line(0, 'Endpoints: <none>');
    return w;
  }
  w.line(0, 'Endpoints:');
  for (const e of endpoints) {
    const addresses = Array.isArray(e.addresses) ? (e.addresses as unknown[]).map(str) : [];
    w.line(1, '- Addresses:', addresses.join(', ') || '<none>');
    w.line(2, 'Conditions:');
    const ready = rec(e.conditions).ready;
    w.line(3, 'Ready:', typeof ready === 'boolean' ? String(ready) : '<unset>');
    w.line(2, 'Hostname:', typeof e.hostname === 'string' ? e.hostname : '<unset>');
    const ref = e.targetRef === undefined ? undefined : rec(e.targetRef);
    if (ref) {
      const text = `${str(ref.kind)}/${str(ref.name)}`;
      w.line(2, 'TargetRef:', text);
      if (str(ref.kind) && str(ref.name)) w.link(text, { apiVersion: str(ref.apiVersion) || 'v1', kind: str(ref.kind), namespace: str(ref.namespace) || namespace, name: str(ref.name) });
    }
    w.line(2, 'NodeName:', typeof e.nodeName === 'string' ? e.nodeName : '<unset>');
    w.line(2, 'Zone:', typeof e.zone === 'string' ? e.zone : '<unset>');
  }
  return w;
}
