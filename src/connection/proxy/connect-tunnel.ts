import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { AbortedError, TransportError } from '../../base/api-error';

export interface TunnelTarget {
  /** The server's host name or IP (without brackets) and port. */
  host: string;
  port: number;
}

/** How the proxy itself is reached. */
export interface ProxyConnectOptions {
  /** CA for an https:// proxy (the cluster's CA is tried along with the system's). */
  ca?: https.RequestOptions['ca'];
  rejectUnauthorized?: boolean;
  /** Resolves the proxy's host name; default the system resolver. */
  lookup?: LookupFunction;
}

/**
 * Opens a CONNECT tunnel through an HTTP(S) proxy to `target` and resolves with the raw socket,
 * ready for TLS (HTTP/2 or HTTP/1.1) or plain HTTP. The proxy URL's userinfo is sent as
 * `Proxy-Authorization: Basic`, never logged and never put into an error. Rejects with a
 * one-line TransportError when the proxy refuses (407, 502, ...), and with AbortedError at
 * once on abort, destroying whatever was opened.
 */
export function openConnectTunnel(proxy: URL, target: TunnelTarget, signal: AbortSignal, via: ProxyConnectOptions = {}): Promise<Socket> {
  const authority = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  const headers: Record<string, string> = { Host: authority };
  if (proxy.username || proxy.password) {
    const user = decodeURIComponent(proxy.username);
    const pass = decodeURIComponent(proxy.password);
    headers['Proxy-Authorization'] = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }
  const where = `the proxy ${proxy.protocol}//${proxy.host}`;
  return new Promise<Socket>((resolve, reject) => {
    if (signal.aborted) return reject(new AbortedError('aborted'));
    const mod = proxy.protocol === 'https:' ? https : http;
    const req = mod.request({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
      lookup: via.lookup,
      ...(proxy.protocol === 'https:' ? { ca: via.ca, rejectUnauthorized: via.rejectUnauthorized } : {}),
    });
    let settled = false;
    const settle = (err: Error | undefined, socket?: Socket) => {
      if (settled) {
        socket?.destroy();
        return;
      }
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        socket?.destroy();
        reject(err);
      } else resolve(socket!);
    };
    const onAbort = () => settle(new AbortedError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    req.once('connect', (res: http.IncomingMessage, socket: Socket, head: Buffer) => {
      if (res.statusCode !== 200) {
        const why = res.statusCode === 407 ? 'asks for credentials (407 Proxy Authentication Required)' : `refused the tunnel to ${authority} (${res.statusCode} ${res.statusMessage ?? ''})`.trim();
        return settle(new TransportError(`${where} ${why}`, res.statusCode === 407 ? 'EPROXYAUTH' : 'EPROXY'), socket);
      }
      if (head.length > 0) socket.unshift(head);
      settle(undefined, socket);
    });
    req.once('response', (res: http.IncomingMessage) => {
      res.resume();
      settle(new TransportError(`${where} answered CONNECT with ${res.statusCode}`, 'EPROXY'));
    });
    req.once('error', (err: Error & { code?: string }) => settle(new TransportError(`${where} cannot be reached (${err.code ?? 'network error'})`, err.code ?? 'EPROXY')));
    req.end();
  });
}
