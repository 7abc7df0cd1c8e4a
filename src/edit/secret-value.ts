import type { KubeObject } from '../informer';

/**
 * One revealed Secret value, changed on its own (W12): revealed values are never typed into an
 * editor buffer, since VS Code backs up every unsaved buffer to disk; each is changed through an
 * input of its own and written to the cluster at once. Invariants: the object with one value
 * changed differs from the one it came from in `data[key]` only, and an input's text always
 * comes back as the value it shows (line breaks included).
 */

/** Why values are not revealed into a buffer with unsaved changes (W12). */
export const REVEAL_NEEDS_SAVED_BUFFER =
  "Save or revert your changes first: revealed values are never kept in an unsaved buffer, so they never reach VS Code's backups on disk.";

/** Undefined when a buffer may show revealed values (it has no unsaved changes); else why not. */
export function revealRefusal(bufferHasUnsavedChanges: boolean): string | undefined {
  return bufferHasUnsavedChanges ? REVEAL_NEEDS_SAVED_BUFFER : undefined;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The Secret's `data` keys, in the server's order. */
export function secretKeys(obj: KubeObject): string[] {
  return isMap(obj.data) ? Object.keys(obj.data) : [];
}

/**
 * How a value shows in a one-line input: `text` as it is; `multiline` (text with line breaks)
 * with each line break as `\n` and each backslash as `\\`; `base64` (bytes that are not text)
 * as the server stores them.
 */
export type SecretValueForm = 'text' | 'multiline' | 'base64';

/** A value as a one-line input shows it, and in which form. */
export interface SecretValueInput {
  form: SecretValueForm;
  text: string;
}

/** The decoded value of `data[key]` as a one-line input shows it; `binary`: the key's bytes are not text (EditSession.binaryKeys). */
export function secretValueInput(obj: KubeObject, key: string, binary: boolean): SecretValueInput {
  const stored = isMap(obj.data) && typeof obj.data[key] === 'string' ? (obj.data[key] as string) : '';
  if (binary) return { form: 'base64', text: stored };
  const text = Buffer.from(stored, 'base64').toString('utf8');
  if (!/[\r\n]/.test(text)) return { form: 'text', text };
  return { form: 'multiline', text: text.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n') };
}

/** Why `typed` cannot be a value in `form`, in words; undefined when it can. */
export function secretValueProblem(form: SecretValueForm, typed: string): string | undefined {
  if (form === 'base64' && (!/^[A-Za-z0-9+/]*={0,2}$/.test(typed) || typed.length % 4 !== 0)) return 'This value is binary and stays base64: this is not valid base64.';
  if (form === 'multiline' && typed.replace(/\\[\\nr]/g, '').includes('\\')) return 'A backslash starts \\n (a line break), \\r or \\\\ (a backslash) in this value.';
  return undefined;
}

/** The base64 that `typed` (in `form`) stores. Check `secretValueProblem` first. */
export function encodeSecretValue(form: SecretValueForm, typed: string): string {
  if (form === 'base64') return typed;
  const text = form === 'multiline' ? typed.replace(/\\([\\nr])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\')) : typed;
  return Buffer.from(text, 'utf8').toString('base64');
}

/** A copy of `obj` with `data[key]` set to `base64`, nothing else changed. */
export function withSecretValue(obj: KubeObject, key: string, base64: string): KubeObject {
  const out = structuredClone(obj);
  out.data = { ...(isMap(out.data) ? out.data : {}), [key]: base64 };
  return out;
}
