import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, describeTime, rec, str, writeAnnotations, writeMap, type Json } from './describe-format';

/** kubectl describe node: roles, taints, conditions, addresses, capacity, system info. */
export function describeNode(node: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((node as Json).spec);
  const status = rec((node as Json).status);
  const labels = rec(node.metadata.labels);
  const roles = Object.keys(labels)
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .sort();
  w.line(0, 'Name:', node.metadata.name ?? '');
  w.line(0, 'Roles:', roles.length ? roles.join(',') : '<none>');
  writeMap(w, 0, 'Labels', labels);
  writeAnnotations(w, node);
  w.line(0, 'CreationTimestamp:', describeTime(node.metadata.creationTimestamp));
  const taints = arr(spec.taints).map((t) => `${str(t.key)}${str(t.value) ? `=${str(t.value)}` : ''}:${str(t.effect)}`);
  if (taints.length === 0) w.line(0, 'Taints:', '<none>');
  taints.forEach((t, i) => w.line(0, i === 0 ? 'Taints:' : '', t));
  w.line(0, 'Unschedulable:', String(spec.unschedulable === true));
  const conditions = arr(status.conditions);
  if (conditions.length > 0) {
    w.line(0, 'Conditions:');
    w.line(1, 'Type', 'Status', 'LastHeartbeatTime', 'LastTransitionTime', 'Reason', 'Message');
    w.line(1, '----', '------', '-----------------', '------------------', '------', '-------');
    for (const c of conditions) w.line(1, str(c.type), str(c.status), describeTime(c.lastHeartbeatTime), describeTime(c.lastTransitionTime), str(c.reason), str(c.message));
  }
  const addresses = arr(status.addresses);
  if (addresses.length) {
    w.line(0, 'Addresses:');
    for (const a of addresses) w.line(1, `${str(a.type)}:`, str(a.address));
  }
  for (const [title, key] of [
    ['Capacity', 'capacity'],
    ['Allocatable', 'allocatable'],
  ] as const) {
    const values = Object.entries(rec(status[key])).sort(([a], [b]) => (a < b ? -1 : 1));
    if (values.length === 0) continue;
    w.line(0, `${title}:`);
    for (const [k, v] of values) w.line(1, `${k}:`, str(v));
  }
  const info = rec(status.nodeInfo);
  if (Object.keys(info).length) {
    w.line(0, 'System Info:');
    for (const [label, key] of [
      ['Machine ID', 'machineID'],
      ['System UUID', 'systemUUID'],
      ['Boot ID', 'bootID'],
      ['Kernel Version', 'kernelVersion'],
      ['OS Image', 'osImage'],
      ['Operating System', 'operatingSystem'],
      ['Architecture', 'architecture'],
      ['Container Runtime Version', 'containerRuntimeVersion'],
      ['Kubelet Version', 'kubeletVersion'],
      ['Kube-Proxy Version', 'kubeProxyVersion'],
    ] as const)
      w.line(1, `${label}:`, str(info[key]));
  }
  if (str(spec.podCIDR)) w.line(0, 'PodCIDR:', str(spec.podCIDR));
  const cidrs = Array.isArray(spec.podCIDRs) ? (spec.podCIDRs as unknown[]).map(str) : [];
  if (cidrs.length) w.line(0, 'PodCIDRs:', cidrs.join(','));
  if (str(spec.providerID)) w.line(0, 'ProviderID:', str(spec.providerID));
  return w;
}
