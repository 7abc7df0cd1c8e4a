/**
 * Reverse patches: what turns an object's newer version back into its older one. A history keeps
 * its newest version whole and every older version as the patch from the version after it, so a
 * version costs the size of what changed (a Pod's status update: a few hundred bytes, against
 * about 3 KiB for its whole JSON), and dropping the oldest version is dropping its patch.
 *
 * A patch mirrors the object's shape, so paths share their prefixes:
 * - a plain object descends: its keys are the object's keys (or an array's indices);
 * - `[value]` sets the older version's value there;
 * - `[value, beforeKey]` puts back a key the newer version lost, in its place before `beforeKey`
 *   (so the older version's YAML keeps its field order);
 * - `0` removes the key (the older version did not have it).
 * Objects are compared key by key, arrays of equal length index by index; an array whose length
 * changed, or a value whose type changed, is set whole. A property whose value is `undefined`
 * counts as absent, as in JSON. `undefined` is the patch between equal versions.
 * Patches are stored as JSON text: one flat one-byte string per version, the most compact form
 * V8 holds, whose size the estimate can count exactly.
 */

/** A node of a patch (see above). */
export type Patch = PatchTree | [value: unknown] | [value: unknown, beforeKey: string] | 0;
export interface PatchTree {
  [key: string]: Patch;
}

/** The patch that turns `newer` into `older` (both JSON values); undefined when they are equal. */
export function reversePatch(newer: unknown, older: unknown): Patch | undefined {
  if (newer === older) return undefined;
  if (isRecord(newer) && isRecord(older)) {
    let node: PatchTree | undefined;
    // for-in over JSON objects: own keys only (their prototype is Object.prototype), no array allocated.
    let index = -1;
    for (const key in older) {
      index++;
      const o = older[key];
      if (o === undefined) continue;
      const n = own(newer, key);
      let sub: Patch | undefined;
      if (n === undefined) {
        const before = Object.keys(older)
          .slice(index + 1)
          .find((k) => own(newer, k) !== undefined);
        sub = before === undefined ? [o] : [o, before];
      } else {
        sub = reversePatch(n, o);
      }
      if (sub !== undefined) setOwn((node ??= {}), key, sub);
    }
    for (const key in newer) {
      if (newer[key] !== undefined && own(older, key) === undefined) setOwn((node ??= {}), key, 0);
    }
    return node;
  }
  if (Array.isArray(newer) && Array.isArray(older) && newer.length === older.length) {
    let node: PatchTree | undefined;
    for (let i = 0; i < older.length; i++) {
      const sub = reversePatch(newer[i], older[i]);
      if (sub !== undefined) (node ??= {})[i] = sub;
    }
    return node;
  }
  // Different primitives, or a change of type or of array length: the older value, whole.
  return [older];
}

/**
 * Applies `patch` to `target` in place (a private copy: the caller's deep clone) and returns the
 * result, which is a new value when the patch replaces the root.
 */
export function applyPatch(target: unknown, patch: Patch | undefined): unknown {
  if (patch === undefined) return target;
  if (Array.isArray(patch)) return patch[0];
  if (patch === 0 || typeof target !== 'object' || target === null) return target; // cannot happen for a patch made by reversePatch
  const obj = target as Record<string, unknown>;
  for (const key in patch) {
    const sub = patch[key];
    const k = Array.isArray(obj) ? Number(key) : key;
    if (sub === 0) {
      delete obj[k];
    } else if (Array.isArray(sub)) {
      if (sub.length === 2 && !Object.hasOwn(obj, k) && Object.hasOwn(obj, sub[1] as string)) insertBefore(obj, key, sub[0], sub[1] as string);
      else setOwn(obj, k, sub[0]);
    } else {
      const child = Array.isArray(obj) ? obj[k as number] : own(obj, key);
      const next = applyPatch(child, sub);
      if (next !== child) setOwn(obj, k, next);
    }
  }
  return obj;
}

/**
 * The paths (keys and indices from the root) a patch touches: where it sets, puts back or
 * removes a value. Calls `visit` for each; stops early when it returns false.
 */
export function patchPaths(patch: Patch | undefined, visit: (path: readonly (string | number)[]) => boolean): void {
  const path: (string | number)[] = [];
  const walk = (node: Patch): boolean => {
    if (node === 0 || Array.isArray(node)) return visit(path);
    for (const key in node) {
      path.push(/^\d+$/.test(key) ? Number(key) : key);
      const go = walk(node[key]);
      path.pop();
      if (!go) return false;
    }
    return true;
  };
  if (patch !== undefined) walk(patch);
}

/** The patch as stored: '' for none (equal versions). */
export function encodePatch(patch: Patch | undefined): string {
  return patch === undefined ? '' : JSON.stringify(patch);
}

export function decodePatch(text: string): Patch | undefined {
  return text === '' ? undefined : (JSON.parse(text) as Patch);
}

/**
 * `obj[key]` if it is the object's own property: a key such as `constructor` or `__proto__`
 * (a ConfigMap may have them) must not read what Object.prototype has. Object.prototype's
 * properties are functions, or the `__proto__` accessor, and JSON values never are, which makes
 * the check cheap on the hot path.
 */
export function own(obj: Record<string, unknown>, key: string): unknown {
  if (key === '__proto__') return Object.hasOwn(obj, key) ? obj[key] : undefined;
  const v = obj[key];
  return typeof v === 'function' ? undefined : v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Adds `key` to `obj` in place, ordered just before `beforeKey` (the keys from there on are re-added after it). */
function insertBefore(obj: Record<string, unknown>, key: string, value: unknown, beforeKey: string): void {
  const keys = Object.keys(obj);
  const tail = keys.slice(keys.indexOf(beforeKey)).map((k) => [k, obj[k]] as const);
  for (const [k] of tail) delete obj[k];
  setOwn(obj, key, value);
  for (const [k, v] of tail) setOwn(obj, k, v);
}

/** `obj[key] = value`, but as an own data property even for the key `__proto__`. */
function setOwn(obj: Record<string | number, unknown>, key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}
