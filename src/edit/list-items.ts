import { stringifyExactJson } from '../base';
import type { ListRule } from './merge-keys/merge-shape';

/**
 * Lists merged item by item: each item's identity across versions (its key), and the order of
 * the merged items. The order keeps the user's where the user reordered or inserted, the
 * server's otherwise; whatever the merge could only guess (both sides reordered, both inserted at
 * the same place, an item without its key, a key twice) is a problem, never a choice.
 */

export type Keyed = { keys: string[] } | { problem: string };

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON with map keys sorted (a set's items are themselves their key). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isMap(v)) return `{${Object.keys(v).filter((k) => v[k] !== undefined).sort().map((k) => `${stringifyExactJson(k)}:${canonical(v[k])}`).join(',')}}`;
  return stringifyExactJson(v) ?? 'null';
}

/** How a key reads in a problem: `name=web`, `containerPort=80,protocol=TCP`, `"a"`. */
export function keyText(key: string, rule: ListRule): string {
  if (rule.kind !== 'map') return key;
  const values = JSON.parse(key) as unknown[];
  return rule.keys.map((k, i) => `${k}=${values[i] === null ? '(none)' : String(values[i])}`).join(',');
}

/** The key of each item under `rule` (merge keys: the values of those fields; a set: the item), or why there is none. */
export function itemKeys(list: readonly unknown[], rule: ListRule): Keyed {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    let key: string;
    if (rule.kind === 'map') {
      if (!isMap(item) || rule.keys.every((k) => item[k] === undefined || item[k] === null)) return { problem: `an item without ${rule.keys.join(' or ')}` };
      key = stringifyExactJson(rule.keys.map((k) => item[k] ?? null));
    } else {
      key = canonical(item);
    }
    if (seen.has(key)) return { problem: `${keyText(key, rule)} appears twice` };
    seen.add(key);
    keys.push(key);
  }
  return { keys };
}

function sameSequence(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** True when `side` orders the items it shares with `base` otherwise than `base` does. */
function reordered(base: readonly string[], side: readonly string[]): boolean {
  const inSide = new Set(side);
  const inBase = new Set(base);
  return !sameSequence(base.filter((k) => inSide.has(k)), side.filter((k) => inBase.has(k)));
}

/**
 * The order of the merged items (`survivors`, by key). The side that reordered (ours when both
 * did the same) gives the order; each item only the other side has is put where that side put it
 * relative to the items around it. `unordered` (a set): an insertion where both sides inserted
 * goes after the other's instead of being a problem. `describe` names an item in a problem.
 */
export function mergedOrder(base: readonly string[], theirs: readonly string[], ours: readonly string[], survivors: ReadonlySet<string>, unordered: boolean, describe: (key: string) => string): { order: string[] } | { problem: string } {
  const theirsReordered = reordered(base, theirs);
  const oursReordered = reordered(base, ours);
  if (theirsReordered && oursReordered) {
    const inAll = (k: string) => base.includes(k) && theirs.includes(k) && ours.includes(k);
    if (!sameSequence(theirs.filter(inAll), ours.filter(inAll))) return { problem: 'both your edit and the server reordered it' };
  }
  const [primary, secondary] = oursReordered ? [ours, theirs] : [theirs, ours];
  const order = primary.filter((k) => survivors.has(k));
  const missing = [...survivors].filter((k) => !order.includes(k));
  const toPlace = secondary.filter((k) => missing.includes(k));
  if (toPlace.length !== missing.length) return { problem: `${describe(missing.find((k) => !toPlace.includes(k)) ?? '')} could not be placed` };
  for (const k of toPlace) {
    const at = secondary.indexOf(k);
    const placed = new Set(order);
    const before = secondary.slice(0, at).filter((x) => placed.has(x)).map((x) => order.indexOf(x));
    const after = secondary.slice(at + 1).filter((x) => placed.has(x)).map((x) => order.indexOf(x));
    const lo = Math.max(-1, ...before);
    const hi = Math.min(order.length, ...after);
    if (lo >= hi) return { problem: `${describe(k)} could not be placed: the orders around it disagree` };
    if (hi - lo > 1 && !unordered) return { problem: `your edit and the server both inserted items where ${describe(k)} goes` };
    order.splice(unordered ? hi : lo + 1, 0, k);
  }
  return { order };
}
