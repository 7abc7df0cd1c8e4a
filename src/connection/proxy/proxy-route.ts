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
 * The route to `server`. This first version honours the kubeconfig's `proxy-url` only (SOCKS
 * and HTTP alike through the library's agent, as before); the environment and the editor's
 * proxy are read by the full implementation.
 */
export function proxyRouteFor(server: URL, inputs: ProxyInputs): ProxyRoute {
  void server;
  if (inputs.kubeconfigProxyUrl) return { kind: 'library-agent', proxy: new URL(inputs.kubeconfigProxyUrl) };
  return { kind: 'direct' };
}

/** The route for logs and tooltips: scheme, host and port only, never credentials. */
export function describeProxyRoute(route: ProxyRoute): string {
  if (route.kind === 'direct') return 'direct';
  return `${route.kind === 'connect' ? 'proxy' : 'proxy agent'} ${route.proxy.protocol}//${route.proxy.host}`;
}
