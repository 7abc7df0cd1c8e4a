import { NoProxy } from './no-proxy';

/**
 * How requests reach one cluster:
 * - `direct`: a TCP (TLS) connection to the server itself;
 * - `connect`: through an HTTP(S) proxy with a CONNECT tunnel (works for HTTP/2 and HTTP/1.1);
 * - `library-agent`: through `@kubernetes/client-node`'s proxy agent (SOCKS), HTTP/1.1 only.
 * A proxy URL may carry credentials: never log `proxy.href`, use `describeProxyRoute`.
 */
export type ProxyRoute = { kind: 'direct' } | { kind: 'connect'; proxy: URL } | { kind: 'library-agent'; proxy: URL };

export interface ProxyInputs {
  /** The cluster's `proxy-url` from the kubeconfig; it wins over everything else. */
  kubeconfigProxyUrl?: string;
  /** The environment as Go reads it (HTTPS_PROXY, HTTP_PROXY, NO_PROXY and lowercase forms). */
  env: NodeJS.ProcessEnv;
  /** An editor-wide proxy (VS Code's `http.proxy`), used where the environment names none. */
  editorProxy?: string;
}

/**
 * The route to `server`, as kubectl chooses it: the kubeconfig's `proxy-url` first (SOCKS
 * through the library's agent, HTTP(S) with CONNECT); else the environment as Go's httpproxy
 * reads it: HTTPS_PROXY for https servers, HTTP_PROXY for http ones (upper case first, then
 * lower case), unless NO_PROXY (or loopback) exempts the server; else the editor's proxy under
 * the same NO_PROXY. A proxy URL without a scheme means http://, as in Go.
 * Throws an Error with a one-line message (no credentials) when a proxy URL cannot be used.
 */
export function proxyRouteFor(server: URL, inputs: ProxyInputs): ProxyRoute {
  if (inputs.kubeconfigProxyUrl) {
    const proxy = parseProxyUrl(inputs.kubeconfigProxyUrl, 'the kubeconfig proxy-url');
    return proxy.protocol.startsWith('socks') ? { kind: 'library-agent', proxy } : { kind: 'connect', proxy };
  }
  const env = inputs.env;
  const https = server.protocol === 'https:';
  const fromEnv = https ? envAny(env, 'HTTPS_PROXY', 'https_proxy') : envAny(env, 'HTTP_PROXY', 'http_proxy');
  const chosen = fromEnv ?? (inputs.editorProxy?.trim() || undefined);
  if (!chosen) return { kind: 'direct' };
  const port = server.port || (https ? '443' : '80');
  if (!new NoProxy(envAny(env, 'NO_PROXY', 'no_proxy')).useProxy(server.hostname, port)) return { kind: 'direct' };
  const proxy = parseProxyUrl(chosen, fromEnv ? (https ? 'HTTPS_PROXY' : 'HTTP_PROXY') : 'the editor setting http.proxy');
  return proxy.protocol.startsWith('socks') ? { kind: 'library-agent', proxy } : { kind: 'connect', proxy };
}

/** The route for logs and tooltips: scheme, host and port only, never credentials. */
export function describeProxyRoute(route: ProxyRoute): string {
  if (route.kind === 'direct') return 'direct';
  return `${route.kind === 'connect' ? 'proxy' : 'proxy agent'} ${route.proxy.protocol}//${route.proxy.host}`;
}

/** The first of `names` set to a non-empty value, as Go's getEnvAny. */
function envAny(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = env[n];
    if (v) return v;
  }
  return undefined;
}

function parseProxyUrl(value: string, where: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${where} is not a valid proxy URL`);
  }
  if (!['http:', 'https:', 'socks5:', 'socks5h:', 'socks4:', 'socks:'].includes(url.protocol)) {
    throw new Error(`${where} has an unsupported proxy scheme ${url.protocol.replace(/:$/, '')}`);
  }
  return url;
}
