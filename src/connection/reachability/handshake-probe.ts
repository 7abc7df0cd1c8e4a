import { readFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { AbortedError } from '../../base/api-error';
import { openConnectTunnel } from '../proxy/connect-tunnel';
import type { ProxyRoute } from '../proxy/proxy-route';

/** One probe of a cluster: resolves when the server is reachable, rejects when it is not (or on abort). */
export type ReachabilityProbe = (signal: AbortSignal) => Promise<void>;

/** How a cluster's server is reached, without any credential: its address, its CA, the proxy route. */
export interface HandshakeTarget {
  /** The server URL (https: TCP and TLS; http: TCP only). */
  server: URL;
  route: ProxyRoute;
  /** The cluster's CA (certificate-authority-data or the file it names, read at each probe); none: the system's. */
  ca?: () => Promise<Buffer | undefined>;
  /** `insecure-skip-tls-verify`. */
  skipVerify?: boolean;
  /** `tls-server-name`. */
  serverName?: string;
  lookup?: net.LookupFunction;
}

/**
 * The probe of F50: a TCP connection to the server (through the CONNECT proxy when the route
 * has one) and, for https, a TLS handshake that verifies the server as requests would, then the
 * socket is closed. No HTTP request is written and no credential is presented: no bearer token,
 * no client certificate, no exec plugin run (only a proxy's own userinfo goes to the proxy, as
 * for every request). Undefined for a SOCKS route, which the probe does not speak: there the
 * cluster's watches come back at their own backoff or at the first answer any request gets.
 */
export function handshakeProbe(target: HandshakeTarget): ReachabilityProbe | undefined {
  const route = target.route;
  if (route.kind === 'library-agent') return undefined;
  const host = target.server.hostname.replace(/^\[|\]$/g, '');
  const secure = target.server.protocol === 'https:';
  const port = Number(target.server.port || (secure ? 443 : 80));
  return async (signal) => {
    if (signal.aborted) throw new AbortedError('aborted');
    const ca = secure ? await target.ca?.() : undefined;
    const raw = route.kind === 'connect' ? await openConnectTunnel(route.proxy, { host, port }, signal, { ca, lookup: target.lookup }) : await connectTcp(host, port, signal, target.lookup);
    if (!secure) {
      raw.destroy();
      return;
    }
    await handshake(raw, { ca, rejectUnauthorized: !target.skipVerify, servername: target.serverName ?? (net.isIP(host) ? undefined : host) }, signal);
  };
}

/** The handshake target of a kubeconfig's current cluster (its CA and TLS settings; never the user's). */
export function handshakeTargetOf(kc: KubeConfig, server: URL, route: ProxyRoute, lookup?: net.LookupFunction): HandshakeTarget {
  const cluster = kc.getCurrentCluster();
  const caData = cluster?.caData;
  const caFile = cluster?.caFile;
  const ca = caData ? async () => Buffer.from(caData, 'base64') : caFile ? () => readFile(caFile) : undefined;
  return { server, route, ca, skipVerify: cluster?.skipTLSVerify, serverName: cluster?.tlsServerName, lookup };
}

function connectTcp(host: string, port: number, signal: AbortSignal, lookup?: net.LookupFunction): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, lookup });
    const onAbort = () => {
      socket.destroy();
      reject(new AbortedError('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(socket);
    });
    socket.once('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(err);
    });
  });
}

/** A TLS handshake over `raw`; the socket is closed whatever the outcome. */
function handshake(raw: net.Socket, options: tls.ConnectionOptions, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ ...options, socket: raw });
    let settled = false;
    const done = (err?: Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) {
        socket.destroy();
        raw.destroy();
      } else socket.destroySoon(); // close_notify and FIN after the handshake's last bytes, so the server sees a clean close
      if (err) reject(err);
      else resolve();
    };
    const onAbort = () => done(new AbortedError('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => done());
    socket.once('error', (err) => done(err));
    socket.once('close', () => done(new Error('the connection closed during the TLS handshake')));
  });
}
