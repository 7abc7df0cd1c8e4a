/**
 * What would change if a manifest were applied: the fields that differ between the live object
 * and the server's dry-run result of applying it (what `kubectl diff --server-side` shows). The
 * server fills defaults, runs admission and keeps fields others own in both, so none of that is
 * drift; what changes on every write (managedFields, resourceVersion, generation, timestamps) and
 * status are left out.
 */

/** Fields that change on every write or belong to the server: never drift. */
const IGNORED_METADATA = new Set(['managedFields', 'resourceVersion', 'generation', 'creationTimestamp', 'uid', 'selfLink']);

function plain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object without what is never drift (for the diff's two sides too). */
export function comparable(obj: unknown): Record<string, unknown> {
  if (!plain(obj)) return {};
  const { status: _status, ...rest } = obj;
  const metadata = plain(rest.metadata) ? Object.fromEntries(Object.entries(rest.metadata).filter(([k]) => !IGNORED_METADATA.has(k))) : rest.metadata;
  return { ...rest, ...(metadata !== undefined ? { metadata } : {}) };
}

/** A list of objects each with a distinct `name` is keyed by it (containers, env, ports), else by index. */
function keyedItems(list: unknown[]): Map<string, unknown> {
  const named = list.every((x) => plain(x) && typeof x.name === 'string') && new Set(list.map((x) => (x as { name: string }).name)).size === list.length;
  return new Map(list.map((x, i) => [named ? `[${(x as { name: string }).name}]` : `[${i}]`, x]));
}

/**
 * The paths (`spec.replicas`, `spec.template.spec.containers[web].image`) where `after` differs
 * from `before`, in document order; a map or list present on one side only is one path.
 */
export function differingFields(before: unknown, after: unknown, path = ''): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (plain(before) && plain(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => differingFields(before[k], after[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const a = keyedItems(before);
    const b = keyedItems(after);
    const sameKeys = a.size === b.size && [...a.keys()].every((k, i) => [...b.keys()][i] === k);
    if (!sameKeys && [...a.keys()].some((k) => /^\[\d+\]$/.test(k))) return [path];
    const keys = [...new Set([...a.keys(), ...b.keys()])];
    return keys.flatMap((k) => differingFields(a.get(k), b.get(k), `${path}${k}`));
  }
  return [path || '(the whole object)'];
}

/** The drift between the live object and the dry-run result (see the file comment). */
export function driftFields(live: unknown, dryRunResult: unknown): string[] {
  return differingFields(comparable(live), comparable(dryRunResult));
}

/** A field as the lens names it: short for long paths (`containers[web].image`). */
export function shortField(path: string): string {
  const parts = path.split('.');
  return parts.length <= 2 ? path : parts.slice(-2).join('.');
}

/**
 * A Secret's two sides for a diff, its values masked as `kubectl diff` masks them: `***` where
 * both sides agree, `*** (before)` and `*** (after)` where they differ (values never reach a
 * document, which VS Code may back up to disk).
 */
export function maskedSecretSides(live: Record<string, unknown>, after: Record<string, unknown>): [Record<string, unknown>, Record<string, unknown>] {
  if (live.kind !== 'Secret' && after.kind !== 'Secret') return [live, after];
  const mask = (own: Record<string, unknown>, other: Record<string, unknown>, side: string) => {
    const out = { ...own };
    for (const field of ['data', 'stringData']) {
      const values = own[field];
      if (!plain(values)) continue;
      const theirs = plain(other[field]) ? (other[field] as Record<string, unknown>) : {};
      out[field] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, theirs[k] === v ? '***' : `*** (${side})`]));
    }
    return out;
  };
  return [mask(live, after, 'before'), mask(after, live, 'after')];
}
