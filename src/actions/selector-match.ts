import type { KubeObject } from '../informer';

/**
 * Whether an object falls inside a watch's label and field selectors, as the server decides it:
 * label requirements `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`; field
 * requirements `path=v`, `path==v`, `path!=v` on the object's dotted path (`metadata.name`,
 * `spec.nodeName`, `status.phase`). Undefined when a selector cannot be read here: the caller
 * then decides from what the watch holds.
 */
export function insideSelectors(obj: KubeObject, labelSelector: string | undefined, fieldSelector: string | undefined): boolean | undefined {
  const labels = obj.metadata.labels ?? {};
  for (const req of splitRequirements(labelSelector ?? '')) {
    const ok = labelRequirement(req, labels);
    if (ok === undefined) return undefined;
    if (!ok) return false;
  }
  for (const req of splitRequirements(fieldSelector ?? '')) {
    const m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(req);
    if (!m) return undefined;
    const value = fieldValue(obj, m[1].trim());
    if ((m[2] === '!=') === (value === m[3].trim())) return false;
  }
  return true;
}

/** Splits at commas outside parentheses. */
function splitRequirements(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

function labelRequirement(req: string, labels: Record<string, string>): boolean | undefined {
  let m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(req);
  if (m) {
    const values = m[3].split(',').map((v) => v.trim());
    const has = m[1] in labels && values.includes(labels[m[1]]);
    return m[2] === 'in' ? has : !has;
  }
  m = /^([^!=\s()]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(req);
  if (m) return m[2] === '!=' ? labels[m[1]] !== m[3] : labels[m[1]] === m[3];
  if (/^![^!=\s]+$/.test(req)) return !(req.slice(1) in labels);
  if (/^[^!=\s()]+$/.test(req)) return req in labels;
  return undefined;
}

function fieldValue(obj: KubeObject, path: string): string {
  let v: unknown = obj;
  for (const part of path.split('.')) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
  return v === undefined || v === null ? '' : String(v);
}
