import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, rec, str, writeAnnotations, writeMap, type Json } from './describe-format';

/** kubectl describe ingress: address, class, default backend, TLS, then Host / Path / Backends; Services link to their descriptions. */
export function describeIngress(ing: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((ing as Json).spec);
  const status = rec((ing as Json).status);
  const namespace = ing.metadata.namespace ?? '';
  w.line(0, 'Name:', ing.metadata.name ?? '');
  writeMap(w, 0, 'Labels', ing.metadata.labels);
  w.line(0, 'Namespace:', namespace);
  const address = arr(rec(status.loadBalancer).ingress).map((i) => str(i.ip) || str(i.hostname));
  w.line(0, 'Address:', address.join(','));
  w.line(0, 'Ingress Class:', str(spec.ingressClassName) || '<none>');
  const backendText = (b: Json): { text: string; service?: string } => {
    const svc = rec(b.service);
    if (str(svc.name)) {
      const port = rec(svc.port);
      return { text: `${str(svc.name)}:${str(port.number) || str(port.name)}`, service: str(svc.name) };
    }
    const res = rec(b.resource);
    return { text: str(res.name) ? `APIGroup: ${str(res.apiGroup)}, Kind: ${str(res.kind)}, Name: ${str(res.name)}` : '<default>' };
  };
  const linkService = (service: string | undefined) => {
    if (service) w.link(service, { apiVersion: 'v1', kind: 'Service', namespace, name: service });
  };
  const def = spec.defaultBackend ? backendText(rec(spec.defaultBackend)) : undefined;
  w.line(0, 'Default backend:', def?.text ?? '<default>');
  linkService(def?.service);
  const tls = arr(spec.tls);
  if (tls.length) {
    w.line(0, 'TLS:');
    for (const t of tls) w.line(1, `${str(t.secretName) || 'SNI routes'} terminates ${(Array.isArray(t.hosts) ? (t.hosts as unknown[]).map(str) : []).join(',')}`);
  }
  w.line(0, 'Rules:');
  w.line(1, 'Host', 'Path', 'Backends');
  w.line(1, '----', '----', '--------');
  const rules = arr(spec.rules);
  if (rules.length === 0) w.line(1, '*', '*', def?.text ?? '<default>');
  for (const r of rules) {
    w.line(1, str(r.host) || '*');
    for (const p of arr(rec(r.http).paths)) {
      const b = backendText(rec(p.backend));
      w.line(2, '', str(p.path) || '/', b.text);
      linkService(b.service);
    }
  }
  writeAnnotations(w, ing);
  return w;
}
