import { ApiError, TransportError, AbortedError, describeError } from '../base';
import type { BufferProblem } from './buffer-problems';
import { OriginRefused } from './origin-refused';
import { pathText, resolveFieldPath, valueAt, type PathSegment } from './field-path';
import { yamlLocations } from './yaml-locations';

/**
 * A failed write in words, and a 422's causes on the buffer's lines. Every message says that
 * nothing was saved (or that whether it was is unknown) and that the edit is kept; none is a
 * stack trace, none quotes a Secret value (a Status message can echo a body, so a Secret's
 * refusal is reduced to its reason and fields).
 */

export interface Refusal {
  /** One or two sentences for a notification. */
  message: string;
  /** The causes that name a field, placed in the buffer. */
  problems: BufferProblem[];
  /** The server did not answer at all (retry when it is back); false when it said no. */
  unreachable: boolean;
  /** The object is gone (404). */
  gone: boolean;
  /** HTTP status, 0 when none. */
  code: number;
}

/** The Status' causes placed in `text` (the buffer), resolved against `object` (the buffer's object). */
export function causeProblems(err: ApiError, text: string, object: unknown, secret: boolean): BufferProblem[] {
  const causes = err.status.details?.causes ?? [];
  const locations = yamlLocations(text);
  const out: BufferProblem[] = [];
  for (const c of causes) {
    if (!c.field) continue;
    const { path, key } = refineToValue(resolveFieldPath(c.field, object).path, object, c.message);
    const immutable = /field is immutable/.test(c.message ?? '');
    const detail = secret ? (c.reason ?? 'invalid') : (c.message ?? c.reason ?? 'invalid');
    const message = immutable ? `${c.field} cannot be changed (immutable): ${detail}` : `${c.field}: ${detail}`;
    out.push({ message, range: (key ? locations.keyOf(path) : undefined) ?? locations.rangeFor(path), path });
  }
  return out;
}

/**
 * A cause that names a map (`metadata.labels`) and quotes the invalid value
 * (`Invalid value: "bad key!"`) is placed on that key (`key`: the key itself is what is invalid),
 * or on the value of the entry holding it.
 */
function refineToValue(path: PathSegment[], object: unknown, message: string | undefined): { path: PathSegment[]; key: boolean } {
  const quoted = /Invalid value: ("(?:[^"\\]|\\.)*")/.exec(message ?? '')?.[1];
  const map = valueAt(object, path);
  if (!quoted || typeof map !== 'object' || map === null || Array.isArray(map)) return { path, key: false };
  let value: unknown;
  try {
    value = JSON.parse(quoted);
  } catch {
    return { path, key: false };
  }
  const entries = Object.entries(map as Record<string, unknown>);
  const byKey = entries.find(([k]) => k === value)?.[0];
  if (byKey !== undefined) return { path: [...path, byKey], key: true };
  const byValue = entries.find(([, v]) => v === value)?.[0];
  return byValue === undefined ? { path, key: false } : { path: [...path, byValue], key: false };
}

/** A problem's field in words: its place in the object, or the server's own name for it when the object does not say (a refusal without the buffer). */
function fieldOf(p: BufferProblem): string {
  if (p.path && p.path.length > 0) return pathText(p.path);
  return /^(\S+?):? /.exec(p.message)?.[1] ?? 'a field';
}

/** The words for a write that failed (see the file comment). `what`: "ConfigMap shop/web". */
export function refusalOf(err: unknown, what: string, text: string, object: unknown, secret: boolean): Refusal {
  if (err instanceof OriginRefused) return { message: `${err.message} Your edit is kept; Save As… keeps it in a file.`, problems: [], unreachable: false, gone: false, code: 0 };
  if (err instanceof ApiError) {
    const problems = causeProblems(err, text, object, secret);
    const said = secret ? `${err.code} ${err.reason}` : describeError(err);
    if (err.code === 404) return { message: `${what} no longer exists on the server: nothing was saved. Your edit is kept; Save As… keeps it in a file.`, problems, unreachable: false, gone: true, code: 404 };
    if (err.code === 403) return { message: `The server refused to change ${what}: ${secret ? 'forbidden' : err.message}. Nothing was saved; your edit is kept.`, problems, unreachable: false, gone: false, code: 403 };
    if (err.code === 401) return { message: `The server did not accept the credentials (401 Unauthorized): nothing was saved. Your edit is kept; save again once signed in.`, problems, unreachable: false, gone: false, code: 401 };
    if (err.code === 422 && problems.length > 0) {
      // A field with several causes (a label key breaks several rules) is named once.
      const fields = [...new Set(problems.map(fieldOf))];
      const immutable = [...new Set(problems.filter((p) => /immutable/.test(p.message)).map(fieldOf))];
      const lead = immutable.length > 0 ? `${immutable.join(', ')} cannot be changed once set` : `The server found ${fields.length === 1 ? 'a field' : `${fields.length} fields`} invalid (${fields.join(', ')})`;
      return { message: `${lead}: nothing was saved. See the Problems panel; your edit is kept.`, problems, unreachable: false, gone: false, code: 422 };
    }
    if (err.code >= 500 || err.code === 429) return { message: `The server could not take the change now (${said}): nothing was saved. Your edit is kept; save again to retry.`, problems, unreachable: true, gone: false, code: err.code };
    return { message: `The server refused the change (${said}): nothing was saved. Your edit is kept.`, problems, unreachable: false, gone: false, code: err.code };
  }
  if (err instanceof TransportError && err.code === 'ETIMEDOUT') {
    return { message: `${err.message}. Your edit is kept; the watch shows whether the change landed. Save again to retry.`, problems: [], unreachable: true, gone: false, code: 0 };
  }
  if (err instanceof TransportError) {
    return { message: `The cluster is unreachable (${err.message}): nothing was saved. Your edit is kept; save again to retry.`, problems: [], unreachable: true, gone: false, code: 0 };
  }
  if (err instanceof AbortedError) return { message: 'The save was cancelled: nothing was saved. Your edit is kept.', problems: [], unreachable: false, gone: false, code: 0 };
  return { message: `Saving failed (${describeError(err)}): your edit is kept.`, problems: [], unreachable: false, gone: false, code: 0 };
}
