/**
 * Parsing API server JSON without building `metadata.managedFields`, for informers that drop
 * them anyway (the default transform). managedFields are a third to a half of a typical
 * object's JSON and, being maps of maps of empty objects, the costliest part to parse: skipping
 * them makes a watch event or list item about 20% cheaper to parse and leaves far less garbage.
 *
 * How: every `"managedFields":[` key in the bytes is cut out together with its array (found by
 * bracket matching that steps over strings and their escapes) and replaced by `-0`, a value the
 * API server never writes there; the rest is parsed with JSON.parse. The result is then checked:
 * every cut must have landed on an object's own `metadata.managedFields` (a watch event's
 * object, or a list's items), where the `-0` is found and replaced by undefined. Any doubt (a
 * `managedFields` key nested deeper, unbalanced brackets, invalid JSON) falls back to JSON.parse
 * of the original bytes, so the outcome is always what JSON.parse followed by dropping
 * `metadata.managedFields` gives, or JSON.parse's error.
 *
 * The key cannot be matched inside a JSON string: there, its second `"` would be escaped. Cut
 * boundaries are ASCII brackets, so no UTF-8 sequence is split. The one difference from
 * JSON.parse: text inside a skipped managedFields array is not validated.
 */

import { ScratchBuffer } from './scratch-buffer';

const KEY = Buffer.from('"managedFields":[');
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_SQUARE = 91;
const CLOSE_SQUARE = 93;
const OPEN_CURLY = 123;
const CLOSE_CURLY = 125;
const MINUS = 45;
const ZERO = 48;

/**
 * Index just past the `]` that closes the array whose content starts at `from`, or -1 when
 * `end` comes first (brackets inside strings do not count).
 */
function arrayEnd(b: Uint8Array, from: number, end: number): number {
  let depth = 1;
  for (let i = from; i < end; i++) {
    const c = b[i];
    if (c === QUOTE) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (i++; i < end; i++) {
        const s = b[i];
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      depth++;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Where `cut` writes the text it returns as a string: reused, as it runs once per received object. */
const scratch = new ScratchBuffer(16 * 1024);

/**
 * The text of `b[start, end)` with up to `max` managedFields arrays replaced by `-0` (never
 * longer than the `[...]` it replaces), and how many were replaced; undefined when there is
 * nothing to cut or the brackets do not balance.
 */
function cut(b: Buffer, start: number, end: number, max: number): { text: string; cuts: number } | undefined {
  let at = b.indexOf(KEY, start);
  if (at === -1 || at >= end) return undefined;
  const out = scratch.take(end - start);
  let size = 0;
  let from = start;
  let cuts = 0;
  while (at !== -1 && at < end && cuts < max) {
    const content = at + KEY.length;
    const after = arrayEnd(b, content, end);
    if (after === -1) return undefined;
    size += b.copy(out, size, from, content - 1);
    out[size++] = MINUS;
    out[size++] = ZERO;
    from = after;
    cuts++;
    at = b.indexOf(KEY, after);
  }
  size += b.copy(out, size, from, end);
  return { text: out.toString('utf8', 0, size), cuts };
}

/** Replaces the `-0` a cut left in `obj.metadata.managedFields` by undefined; false when there is none. */
function clearCut(obj: unknown): boolean {
  if (typeof obj !== 'object' || obj === null) return false;
  const meta = (obj as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null) return false;
  const m = meta as { managedFields?: unknown };
  if (!Object.is(m.managedFields, -0)) return false;
  m.managedFields = undefined;
  return true;
}

/** Sets `obj.metadata.managedFields` to undefined where it is set (the default transform's way). */
function drop(obj: unknown): void {
  if (typeof obj !== 'object' || obj === null) return;
  const meta = (obj as { metadata?: unknown }).metadata;
  if (typeof meta === 'object' && meta !== null && (meta as { managedFields?: unknown }).managedFields !== undefined) {
    (meta as { managedFields?: unknown }).managedFields = undefined;
  }
}

function parseWholeEvent(b: Buffer, start: number, end: number): unknown {
  const ev: unknown = JSON.parse(b.toString('utf8', start, end));
  if (typeof ev === 'object' && ev !== null) drop((ev as { object?: unknown }).object);
  return ev;
}

function parseWholeList(b: Buffer): unknown {
  const list: unknown = JSON.parse(b.toString('utf8'));
  const items = typeof list === 'object' && list !== null ? (list as { items?: unknown }).items : undefined;
  if (Array.isArray(items)) for (const item of items) drop(item);
  return list;
}

/**
 * One watch event line, `b[start, end)`, as JSON.parse gives it but with
 * `object.metadata.managedFields` undefined. Throws what JSON.parse throws.
 */
export function parseEventWithoutManagedFields(b: Buffer, start = 0, end = b.length): unknown {
  const c = cut(b, start, end, 1);
  if (!c) return parseWholeEvent(b, start, end);
  let ev: unknown;
  try {
    ev = JSON.parse(c.text);
  } catch {
    return parseWholeEvent(b, start, end);
  }
  const obj = typeof ev === 'object' && ev !== null ? (ev as { object?: unknown }).object : undefined;
  return clearCut(obj) ? ev : parseWholeEvent(b, start, end);
}

/** One object (a list item), `b[start, end)`, as JSON.parse gives it but with `metadata.managedFields` undefined. */
export function parseObjectWithoutManagedFields(b: Buffer, start = 0, end = b.length): unknown {
  const c = cut(b, start, end, 1);
  const whole = () => {
    const obj: unknown = JSON.parse(b.toString('utf8', start, end));
    drop(obj);
    return obj;
  };
  if (!c) return whole();
  let obj: unknown;
  try {
    obj = JSON.parse(c.text);
  } catch {
    return whole();
  }
  return clearCut(obj) ? obj : whole();
}

/**
 * A LIST response body as JSON.parse gives it but with every `items[i].metadata.managedFields`
 * undefined. Throws what JSON.parse throws.
 */
export function parseListWithoutManagedFields(b: Buffer): unknown {
  const c = cut(b, 0, b.length, Number.POSITIVE_INFINITY);
  if (!c) return parseWholeList(b);
  let list: unknown;
  try {
    list = JSON.parse(c.text);
  } catch {
    return parseWholeList(b);
  }
  const items = typeof list === 'object' && list !== null ? (list as { items?: unknown }).items : undefined;
  if (!Array.isArray(items)) return parseWholeList(b);
  let cleared = 0;
  for (const item of items) if (clearCut(item)) cleared++;
  return cleared === c.cuts ? list : parseWholeList(b);
}
