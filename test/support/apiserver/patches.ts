/**
 * The three patch kinds a client sends with PATCH, applied to a stored object:
 * - JSON merge patch (RFC 7386): maps merge, `null` deletes, everything else replaces;
 * - strategic merge patch, simplified: a JSON merge patch in which lists of maps that carry a
 *   string `name` (containers, env, ports, volumes, ...: the merge key of the built-in types)
 *   merge item by item, an item `{"name": "x", "$patch": "delete"}` removes one, and
 *   `$retainKeys`/`$setElementOrder` directives are ignored;
 * - JSON patch (RFC 6902): add, remove, replace, move, copy, test.
 * A patch that cannot be applied throws a PatchError carrying the Status the real server sends
 * (transcript writes-1.34.md).
 */

/** What the server answers a patch it cannot apply with. */
export class PatchError extends Error {
  constructor(
    readonly code: 400 | 422,
    message: string,
  ) {
    super(message);
  }
}

type Json = unknown;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 7386. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isMap(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isMap(target) ? structuredClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function isNamedList(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.every((i) => isMap(i) && typeof i.name === 'string');
}

/** The simplified strategic merge patch (see the file comment). */
export function strategicMergePatch(target: Json, patch: Json): Json {
  if (!isMap(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isMap(target) ? structuredClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else if (Array.isArray(v) && v.length > 0 && isNamedList(v) && isNamedList(out[k])) out[k] = mergeNamedLists(out[k] as Record<string, unknown>[], v);
    else if (Array.isArray(v)) out[k] = v.filter((i) => !(isMap(i) && i.$patch === 'delete')).map((i) => structuredClone(i) as unknown);
    else out[k] = strategicMergePatch(out[k], v);
  }
  return out;
}

function mergeNamedLists(current: Record<string, unknown>[], patch: Record<string, unknown>[]): Record<string, unknown>[] {
  const out = current.map((i) => structuredClone(i));
  for (const item of patch) {
    const at = out.findIndex((i) => i.name === item.name);
    if (item.$patch === 'delete') {
      if (at >= 0) out.splice(at, 1);
    } else if (at >= 0) out[at] = strategicMergePatch(out[at], item) as Record<string, unknown>;
    else out.push(strategicMergePatch({}, item) as Record<string, unknown>);
  }
  return out;
}

interface Operation {
  op?: unknown;
  path?: unknown;
  from?: unknown;
  value?: unknown;
}

/** `/a/b~1c/0` as segments (RFC 6901). */
function pointer(path: unknown): string[] {
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) throw new PatchError(400, `invalid JSON pointer ${JSON.stringify(path)}`);
  return path === '' ? [] : path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: Json, segs: string[]): { parent: Record<string, unknown> | unknown[]; key: string } {
  let cur: unknown = doc;
  for (const s of segs.slice(0, -1)) {
    cur = Array.isArray(cur) ? cur[Number(s)] : isMap(cur) ? cur[s] : undefined;
    if (cur === undefined) throw new PatchError(422, 'the server rejected our request due to an error in our request');
  }
  if (!Array.isArray(cur) && !isMap(cur)) throw new PatchError(422, 'the server rejected our request due to an error in our request');
  return { parent: cur, key: segs[segs.length - 1] };
}

function get(doc: Json, segs: string[]): unknown {
  let cur: unknown = doc;
  for (const s of segs) cur = Array.isArray(cur) ? cur[Number(s)] : isMap(cur) ? cur[s] : undefined;
  return cur;
}

function add(doc: Json, segs: string[], value: unknown): void {
  const { parent, key } = parentOf(doc, segs);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new PatchError(422, 'the server rejected our request due to an error in our request');
    parent.splice(i, 0, structuredClone(value));
  } else parent[key] = structuredClone(value);
}

function remove(doc: Json, segs: string[]): unknown {
  const { parent, key } = parentOf(doc, segs);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) throw new PatchError(422, 'the server rejected our request due to an error in our request');
    return parent.splice(i, 1)[0];
  }
  if (!(key in parent)) throw new PatchError(422, 'the server rejected our request due to an error in our request');
  const v = parent[key];
  delete parent[key];
  return v;
}

/** RFC 6902 on a copy of `target`. */
export function jsonPatch(target: Json, operations: Json): Json {
  if (!Array.isArray(operations)) throw new PatchError(400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  const doc = structuredClone(target);
  for (const raw of operations as Operation[]) {
    const segs = pointer(raw.path);
    switch (raw.op) {
      case 'add':
        add(doc, segs, raw.value);
        break;
      case 'remove':
        remove(doc, segs);
        break;
      case 'replace': {
        // As kube-apiserver's json-patch library: replacing a missing map key adds it.
        const { parent, key } = parentOf(doc, segs);
        if (Array.isArray(parent)) remove(doc, segs);
        if (Array.isArray(parent)) add(doc, segs, raw.value);
        else parent[key] = structuredClone(raw.value);
        break;
      }
      case 'move': {
        const v = remove(doc, pointer(raw.from));
        add(doc, segs, v);
        break;
      }
      case 'copy':
        add(doc, segs, get(doc, pointer(raw.from)));
        break;
      case 'test':
        if (JSON.stringify(get(doc, segs)) !== JSON.stringify(raw.value)) throw new PatchError(422, 'the server rejected our request due to an error in our request');
        break;
      default:
        throw new PatchError(400, `Unexpected kind: ${String(raw.op)}`);
    }
  }
  return doc;
}
