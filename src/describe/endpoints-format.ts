import type { KubeObject } from '../informer';
import { arr, rec, str, type Json } from './describe-format';

/** kubectl shows at most this many addresses on a Service's Endpoints line, then "+ N more...". */
const MAX_SHOWN = 3;

/** `host:port`, with brackets around an IPv6 host (Go's net.JoinHostPort). */
function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Collects addresses as kubectl does: the first three, and how many there were in all. */
class AddressList {
  private readonly shown: string[] = [];
  private count = 0;
  private more = false;

  /**
   * One endpoint; `address` undefined for one that is not ready. As in kubectl, the list is
   * found full before readiness is looked at, so a not-ready endpoint after three ready ones
   * still turns on "+ N more..." (even "+ 0 more...").
   */
  add(address: string | undefined): void {
    if (this.shown.length === MAX_SHOWN) this.more = true;
    if (address === undefined) return;
    if (!this.more) this.shown.push(address);
    this.count++;
  }

  toString(): string {
    const joined = this.shown.join(',');
    return this.more ? `${joined} + ${this.count - MAX_SHOWN} more...` : joined;
  }
}

/**
 * The Endpoints line of `kubectl describe service` (1.33+) for one Service port, from the
 * Service's EndpointSlices (kubectl's formatEndpointSlices): the ready endpoints' first address
 * with the slice port of the same name, three at most, `<none>` without slices. An endpoint
 * without a Ready condition counts as ready, as the API says.
 */
export function formatEndpointSlices(slices: readonly KubeObject[], portName: string): string {
  if (slices.length === 0) return '<none>';
  const list = new AddressList();
  for (const slice of slices) {
    const s = slice as unknown as Json;
    const endpoints = arr(s.endpoints);
    const ports = arr(s.ports);
    const ready = (e: Json) => rec(e.conditions).ready !== false;
    const first = (e: Json) => (Array.isArray(e.addresses) ? str(e.addresses[0]) : '');
    if (ports.length === 0) {
      // A headless Service without ports: addresses alone.
      for (const e of endpoints) list.add(ready(e) ? first(e) : undefined);
      continue;
    }
    for (const p of ports) {
      if (str(p.name) !== portName) continue;
      for (const e of endpoints) list.add(ready(e) ? joinHostPort(first(e), typeof p.port === 'number' ? String(p.port) : '') : undefined);
    }
  }
  return list.toString();
}

/**
 * The same line from the core Endpoints object, as kubectl printed it before EndpointSlices
 * (formatEndpoints): for servers that do not serve discovery.k8s.io/v1. `<none>` without subsets.
 */
export function formatEndpoints(endpoints: KubeObject | undefined, portName: string): string {
  const subsets = arr(rec(endpoints as unknown).subsets);
  if (subsets.length === 0) return '<none>';
  const list = new AddressList();
  for (const ss of subsets) {
    const addresses = arr(ss.addresses).map((a) => str(a.ip));
    const ports = arr(ss.ports);
    if (ports.length === 0) {
      for (const ip of addresses) list.add(ip);
      continue;
    }
    for (const p of ports) {
      if (str(p.name) !== portName) continue;
      for (const ip of addresses) list.add(joinHostPort(ip, typeof p.port === 'number' ? String(p.port) : ''));
    }
  }
  return list.toString();
}
