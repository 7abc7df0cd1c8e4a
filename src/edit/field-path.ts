/**
 * Paths into an object, and the server's spellings of them:
 * - validation (a 422's `causes[].field`): `spec.template.spec.containers[0].image`,
 *   `data[bad key]`, `metadata.labels`;
 * - server-side apply (a conflict's field): `.spec.replicas`,
 *   `.spec.template.spec.containers[name="web"].image`, and map keys after a dot even when they
 *   hold dots themselves (`.metadata.labels.app.kubernetes.io/name`).
 * A path here is concrete: map keys and list indexes, resolved against an object.
 */

/** A map key or a list index. */
export type PathSegment = string | number;
export type FieldPath = readonly PathSegment[];

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** As people read it: `spec.template.spec.containers[0].image`, `data[bad key]`, `metadata.labels[app.kubernetes.io/name]`. */
export function pathText(path: FieldPath): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${s}]`;
  }
  return out;
}

/** The same path (for map keys). */
export function pathKey(path: FieldPath): string {
  return JSON.stringify(path);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at `path`, or undefined. */
export function valueAt(obj: unknown, path: FieldPath): unknown {
  let cur = obj;
  for (const s of path) {
    if (typeof s === 'number') cur = Array.isArray(cur) ? cur[s] : undefined;
    else cur = isMap(cur) ? cur[s] : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** The text inside `[...]` starting at `open`, honouring double quotes; and the index after `]`. */
function bracket(text: string, open: number): { content: string; next: number } {
  let i = open + 1;
  let quoted = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ']' && !quoted) break;
  }
  return { content: text.slice(open + 1, i), next: i + 1 };
}

/** `name="web",port=80` as pairs; values JSON-decoded where they can be. */
function keyPairs(content: string): [string, unknown][] | undefined {
  const out: [string, unknown][] = [];
  const re = /\s*([^=,\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,]*)\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < content.length && (m = re.exec(content)) !== null) {
    let value: unknown = m[2];
    try {
      value = JSON.parse(m[2]);
    } catch {
      // a bare word: kept as text
    }
    out.push([m[1], value]);
    at = re.lastIndex;
  }
  return out.length > 0 && at >= content.length ? out : undefined;
}

/**
 * Resolves a server's field path against `obj` as far as it goes: `path` is the concrete path
 * of the deepest part found, `complete` whether all of it was.
 */
export function resolveFieldPath(text: string, obj: unknown): { path: PathSegment[]; complete: boolean } {
  const path: PathSegment[] = [];
  let cur: unknown = obj;
  let i = 0;
  const fail = () => ({ path, complete: false });
  while (i < text.length) {
    if (text[i] === '[') {
      const { content, next } = bracket(text, i);
      i = next;
      if (Array.isArray(cur)) {
        if (/^\d+$/.test(content)) {
          const index = Number(content);
          if (index >= cur.length) return fail();
          path.push(index);
          cur = cur[index];
          continue;
        }
        const pairs = keyPairs(content);
        const at = pairs ? cur.findIndex((item) => isMap(item) && pairs.every(([k, v]) => item[k] === v || String(item[k]) === String(v))) : -1;
        if (at < 0) return fail();
        path.push(at);
        cur = cur[at];
        continue;
      }
      if (!isMap(cur) || !(content in cur)) return fail();
      path.push(content);
      cur = cur[content];
      continue;
    }
    if (text[i] === '.') i++;
    // A dotted field: the longest run of dot-separated parts that is a key of the map here.
    let end = i;
    while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
    if (!isMap(cur)) return fail();
    let key: string | undefined;
    let keyEnd = end;
    for (let stop = end; ; ) {
      const candidate = text.slice(i, stop);
      if (candidate in cur) {
        key = candidate;
        keyEnd = stop;
      }
      if (stop >= text.length || text[stop] !== '.') break;
      stop++;
      while (stop < text.length && text[stop] !== '.' && text[stop] !== '[') stop++;
    }
    if (key === undefined) return fail();
    path.push(key);
    cur = cur[key];
    i = keyEnd;
  }
  return { path, complete: true };
}
