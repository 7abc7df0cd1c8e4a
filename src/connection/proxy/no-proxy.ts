import { BlockList, isIP } from 'node:net';

/**
 * NO_PROXY as Go's golang.org/x/net/http/httpproxy reads it (and so kubectl):
 * comma-separated entries, case-insensitive; `*` alone bypasses every host; an IP or CIDR
 * (`10.0.0.0/8`, `::1/128`) matches addresses; `foo.com` matches foo.com and its subdomains,
 * `.foo.com` (or `*.foo.com`) only its subdomains; any entry may end in `:port`, which then
 * must match too. `localhost` and loopback addresses are never proxied, whatever NO_PROXY says.
 */
export class NoProxy {
  private readonly all: boolean;
  private readonly cidrs: BlockList[] = [];
  private readonly ips: { ip: string; port: string }[] = [];
  private readonly domains: { suffix: string; port: string; matchHost: boolean }[] = [];

  constructor(value: string | undefined) {
    let all = false;
    for (const raw of (value ?? '').split(',')) {
      const p = raw.trim().toLowerCase();
      if (!p) continue;
      if (p === '*') {
        all = true;
        break;
      }
      const cidr = parseCidr(p);
      if (cidr) {
        this.cidrs.push(cidr);
        continue;
      }
      const split = splitHostPort(p);
      let [host, port] = split ?? [p, ''];
      // As Go: an entry with a port but no host is malformed and ignored; brackets go only with a port.
      if (split && !host) continue;
      if (split && host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
      if (isIP(host)) {
        this.ips.push({ ip: normalizeIp(host), port });
        continue;
      }
      if (!host) continue;
      if (host.startsWith('*.')) host = host.slice(1);
      const matchHost = !host.startsWith('.');
      this.domains.push({ suffix: matchHost ? `.${host}` : host, port, matchHost });
    }
    this.all = all;
  }

  /** True when a request to `host` (a name or an IP, without brackets) on `port` goes through a proxy. */
  useProxy(host: string, port: string): boolean {
    const h = host.toLowerCase().replace(/^\[|\]$/g, '');
    if (h === 'localhost' || isLoopback(h)) return false;
    if (this.all) return false;
    const family = isIP(h);
    if (family) {
      const ip = normalizeIp(h);
      for (const c of this.cidrs) if (c.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return false;
      for (const m of this.ips) if (m.ip === ip && (!m.port || m.port === port)) return false;
    }
    // Domain entries match names only, never IP addresses (Go's domainMatch requires ip == nil).
    if (family) return true;
    for (const d of this.domains) {
      if (h.endsWith(d.suffix) || (d.matchHost && h === d.suffix.slice(1))) {
        if (!d.port || d.port === port) return false;
      }
    }
    return true;
  }
}

function parseCidr(p: string): BlockList | undefined {
  const m = /^(.+)\/(\d{1,3})$/.exec(p);
  if (!m) return undefined;
  const family = isIP(m[1]);
  const bits = Number(m[2]);
  if (!family || bits > (family === 4 ? 32 : 128)) return undefined;
  const list = new BlockList();
  list.addSubnet(m[1], bits, family === 4 ? 'ipv4' : 'ipv6');
  return list;
}

/** host:port or [v6]:port; undefined when the entry carries no port (as Go's SplitHostPort fails). */
function splitHostPort(p: string): [string, string] | undefined {
  const m = /^(\[[^\]]*\]|[^:]*):(\d*)$/.exec(p);
  return m ? [m[1], m[2]] : undefined;
}

function normalizeIp(ip: string): string {
  // ::ffff:1.2.3.4 and 1.2.3.4 are the same address to Go's net.IP.Equal.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  return mapped ? mapped[1] : ip;
}

function isLoopback(host: string): boolean {
  const family = isIP(host);
  if (family === 4 || (family === 6 && /^::ffff:\d/.test(host))) return normalizeIp(host).startsWith('127.');
  if (family === 6) return /^(0*:)*:?0*1$/.test(host) || host === '::1';
  return false;
}
