import type { KubeObject } from '../../informer';
import { age, ageField, array, formatLabels, int, record, records, str, type Json } from './cells';
import { row, type PrintedRow } from './printed-row';

/** kubectl clips a load balancer's addresses to this many characters outside `-o wide`. */
const LOAD_BALANCER_WIDTH = 16;

/** The distinct IPs (else hostnames) of a load balancer status, sorted, clipped unless `wide`. */
function loadBalancerAddresses(status: Json, wide: boolean): string {
  const found = new Set<string>();
  for (const i of records(status.ingress)) {
    if (str(i.ip)) found.add(str(i.ip));
    else if (str(i.hostname)) found.add(str(i.hostname));
  }
  const joined = [...found].sort().join(',');
  return !wide && joined.length > LOAD_BALANCER_WIDTH ? `${joined.slice(0, LOAD_BALANCER_WIDTH - 3)}...` : joined;
}

/** kubectl's EXTERNAL-IP of a Service. */
export function serviceExternalIp(obj: KubeObject, wide = false): string {
  const spec = record(obj.spec);
  const external = array(spec.externalIPs).map(str);
  switch (str(spec.type) || 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(record(record(obj.status).loadBalancer), wide);
      if (external.length > 0) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

/** `80/TCP,443:30443/TCP`. */
export function servicePorts(ports: unknown): string {
  return records(ports)
    .map((p) => {
      const protocol = str(p.protocol) || 'TCP';
      return int(p.nodePort) > 0 ? `${int(p.port)}:${int(p.nodePort)}/${protocol}` : `${int(p.port)}/${protocol}`;
    })
    .join(',');
}

/** Services: NAME TYPE CLUSTER-IP EXTERNAL-IP PORTS AGE, wide SELECTOR. Description: "ClusterIP 10.96.0.1 · 443/TCP · 5d". */
export function printService(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const type = str(spec.type) || 'ClusterIP';
  const clusterIp = str(array(spec.clusterIPs)[0]) || str(spec.clusterIP) || '<none>';
  const external = serviceExternalIp(obj);
  const ports = servicePorts(spec.ports) || '<none>';
  const pendingLb = external === '<pending>';
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['TYPE', type],
      ['CLUSTER-IP', clusterIp],
      ['EXTERNAL-IP', external],
      ['PORTS', ports],
      ['AGE', age(obj, now)],
    ],
    {
      summary: [`${type} ${type === 'ExternalName' ? external : clusterIp}`, type === 'LoadBalancer' ? `external ${external}` : '', ports, ageField(obj, now)],
      health: pendingLb ? { icon: 'clock', tone: 'busy' } : { icon: 'plug', tone: 'neutral' },
    },
    [['SELECTOR', formatLabels(spec.selector)]],
  );
}

/** Up to three hosts, then "+ N more..."; `*` when no rule names one. */
function ingressHosts(rules: Json[]): string {
  const hosts: string[] = [];
  let more = false;
  for (const r of rules) {
    if (hosts.length === 3) more = true;
    if (!more && str(r.host)) hosts.push(str(r.host));
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

/** Ingresses: NAME CLASS HOSTS ADDRESS PORTS AGE. Description: "nginx · shop.example.com · 203.0.113.7 · 80, 443 · 2d". */
export function printIngress(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const className = str(spec.ingressClassName) || '<none>';
  const hosts = ingressHosts(records(spec.rules));
  const address = loadBalancerAddresses(record(record(obj.status).loadBalancer), false);
  const ports = array(spec.tls).length > 0 ? '80, 443' : '80';
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['CLASS', className],
      ['HOSTS', hosts],
      ['ADDRESS', address],
      ['PORTS', ports],
      ['AGE', age(obj, now)],
    ],
    {
      summary: [address || 'no address', hosts, className === '<none>' ? '' : className, ports, ageField(obj, now)],
      health: address ? { icon: 'globe', tone: 'neutral' } : { icon: 'clock', tone: 'busy' },
    },
  );
}
