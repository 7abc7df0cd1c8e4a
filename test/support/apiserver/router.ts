/**
 * Parses request paths the way the apiserver's request-info resolver does:
 * /api, /api/v1, /apis, /apis/G, /apis/G/V (discovery);
 * /api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUBRESOURCE]] and the same under /apis/G/V (resources);
 * a few non-resource paths (/version, /healthz, /livez, /readyz); the OpenAPI v3 documents.
 * Anything else is `unknown`.
 * Parsing never consults the registry: whether the resource exists is decided later.
 */

export type Route =
  | { kind: 'discovery'; doc: 'api' | 'apis' | 'group' | 'groupVersion'; group?: string; version?: string }
  | { kind: 'resource'; group: string; version: string; resource: string; namespace?: string; name?: string; subresource?: string }
  | { kind: 'nonResource'; path: string }
  /** /openapi/v3 (document '') and /openapi/v3/api/v1, /openapi/v3/apis/G/V (document 'api/v1', 'apis/G/V'). */
  | { kind: 'openapi'; document: string }
  | { kind: 'unknown' };

const NON_RESOURCE = new Set(['/version', '/healthz', '/livez', '/readyz']);

function resourceRoute(group: string, version: string, rest: string[]): Route {
  if (rest.length === 0) return { kind: 'unknown' };
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (extra.length > 0) return { kind: 'unknown' };
    return { kind: 'resource', group, version, resource, namespace, name, subresource };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (extra.length > 0) return { kind: 'unknown' };
  return { kind: 'resource', group, version, resource, name, subresource };
}

export function parsePath(pathname: string): Route {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (NON_RESOURCE.has(trimmed)) return { kind: 'nonResource', path: trimmed };
  if (trimmed === '/openapi/v3' || trimmed.startsWith('/openapi/v3/')) return { kind: 'openapi', document: trimmed.slice('/openapi/v3/'.length) };
  let segs: string[];
  try {
    segs = trimmed.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return { kind: 'unknown' };
  }
  if (segs.some((s) => s === '')) return { kind: 'unknown' };
  if (segs[0] === 'api') {
    if (segs.length === 1) return { kind: 'discovery', doc: 'api' };
    if (segs.length === 2) return { kind: 'discovery', doc: 'groupVersion', group: '', version: segs[1] };
    return resourceRoute('', segs[1], segs.slice(2));
  }
  if (segs[0] === 'apis') {
    if (segs.length === 1) return { kind: 'discovery', doc: 'apis' };
    if (segs.length === 2) return { kind: 'discovery', doc: 'group', group: segs[1] };
    if (segs.length === 3) return { kind: 'discovery', doc: 'groupVersion', group: segs[1], version: segs[2] };
    return resourceRoute(segs[1], segs[2], segs.slice(3));
  }
  return { kind: 'unknown' };
}

/** Go's strconv.ParseBool as used for the `watch` parameter. */
export function isTrue(v: string | undefined): boolean {
  return v !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);
}
