type Json = Record<string, unknown>;
const record = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/**
 * A `metav1.LabelSelector` (`matchLabels`, `matchExpressions`) as apimachinery's
 * `LabelSelectorAsSelector(...).String()` writes it, which is what kubectl prints and what the
 * `labelSelector` query parameter takes: requirements sorted by key (stable, so `matchLabels`
 * come before expressions on the same key), `In`/`NotIn` values sorted:
 * `app=web,tier in (a,b),!canary`. '' when it names no requirement (absent or empty);
 * requirements without a key or with an unknown operator are left out.
 */
export function labelSelectorText(selector: unknown): string {
  const s = record(selector);
  const requirements: { key: string; text: string }[] = Object.entries(record(s.matchLabels)).map(([key, value]) => ({ key, text: `${key}=${text(value)}` }));
  for (const e of array(s.matchExpressions).map(record)) {
    const key = text(e.key);
    if (key === '') continue;
    const values = array(e.values).map(text).sort();
    const byOperator = new Map([
      ['In', `${key} in (${values.join(',')})`],
      ['NotIn', `${key} notin (${values.join(',')})`],
      ['Exists', key],
      ['DoesNotExist', `!${key}`],
    ]);
    const shown = byOperator.get(text(e.operator));
    if (shown !== undefined) requirements.push({ key, text: shown });
  }
  return requirements
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.text)
    .join(',');
}
