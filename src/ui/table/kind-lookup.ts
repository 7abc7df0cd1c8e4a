import type { ResourceType } from '../../informer';

/** kubectl's short names of Kubernetes' own types (discovery's `shortNames`), for `:po`, `:deploy`, `:svc`. */
const SHORT_NAMES: Record<string, string> = {
  po: 'pods', deploy: 'deployments', svc: 'services', ns: 'namespaces', no: 'nodes', cm: 'configmaps', rs: 'replicasets',
  sts: 'statefulsets', ds: 'daemonsets', ing: 'ingresses', pvc: 'persistentvolumeclaims', pv: 'persistentvolumes',
  sa: 'serviceaccounts', ep: 'endpoints', ev: 'events', cj: 'cronjobs', crd: 'customresourcedefinitions', crds: 'customresourcedefinitions',
  hpa: 'horizontalpodautoscalers', netpol: 'networkpolicies', pdb: 'poddisruptionbudgets', sc: 'storageclasses', rc: 'replicationcontrollers',
  limits: 'limitranges', quota: 'resourcequotas', pc: 'priorityclasses', csr: 'certificatesigningrequests',
};

/**
 * The type a k9s-style `:name` means among `types` (the watched ones first, then discovery's):
 * a plural (`pods`), a singular (`pod`), a short name (`po`, `deploy`), a kind (`Deployment`), or
 * a qualified name (`deployments.apps`, `widgets.example.com`); case-insensitive; the core group
 * wins a tie, then the order given. Undefined when nothing matches.
 */
export function lookupKind(text: string, types: readonly ResourceType[], shortNames: Readonly<Record<string, readonly string[]>> = {}): ResourceType | undefined {
  const wanted = text.trim().replace(/^:/, '').trim().toLowerCase();
  if (wanted === '') return undefined;
  const dot = wanted.indexOf('.');
  const name = dot < 0 ? wanted : wanted.slice(0, dot);
  const group = dot < 0 ? undefined : wanted.slice(dot + 1);
  const inGroup = types.filter((t) => group === undefined || t.group.toLowerCase() === group);
  const ranked = [...inGroup.filter((t) => t.group === ''), ...inGroup.filter((t) => t.group !== '')];
  const plural = SHORT_NAMES[name];
  return (
    ranked.find((t) => t.resource === name) ??
    ranked.find((t) => singular(t) === name) ??
    ranked.find((t) => (shortNames[`${t.resource}.${t.group}`] ?? []).includes(name)) ??
    (plural ? ranked.find((t) => t.resource === plural) : undefined) ??
    ranked.find((t) => t.kind.toLowerCase() === name)
  );
}

/** A type's singular name as discovery usually has it: its kind, lower-cased. */
function singular(type: ResourceType): string {
  return type.kind.toLowerCase();
}

/** Names to offer after `:` (the watched types' plurals and short names), sorted. */
export function kindSuggestions(types: readonly ResourceType[]): string[] {
  const names = new Set<string>();
  for (const t of types) names.add(t.group ? `${t.resource}.${t.group}` : t.resource);
  return [...names].sort();
}
