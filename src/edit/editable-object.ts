import { dump } from 'js-yaml';
import { EXACT_DUMP_SCHEMA } from './exact-yaml';
import type { KubeObject } from '../informer';
import type { FieldPath } from './field-path';

/**
 * An object as the editor shows it, and back: the server-owned fields the user does not edit
 * are left out of the text (a setting) and put back from the version the edit started from when
 * it is saved; a Secret's values are masked, or decoded to text once revealed, and encoded back.
 */

/** The mask a Secret value shows until revealed: the same as the live YAML's (src/ui/object-yaml.ts). */
export const SECRET_MASK = '••••••';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** What the editor leaves out when `hideServerFields` is on: written by the server, never by the user. */
export const SERVER_FIELDS: readonly FieldPath[] = [
  ['metadata', 'uid'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'generation'],
  ['metadata', 'creationTimestamp'],
  ['metadata', 'selfLink'],
  ['metadata', 'annotations', LAST_APPLIED_ANNOTATION],
  ['status'],
];

/** Never shown, whatever the setting (as the live YAML). */
const ALWAYS_HIDDEN: readonly FieldPath[] = [['metadata', 'managedFields']];

export interface EditableOptions {
  /** `ConfigMap`, when the object lacks its kind (list items do). */
  kind?: string;
  /** `v1`, `apps/v1`, when the object lacks it. */
  apiVersion?: string;
  /** Leave out SERVER_FIELDS (`kubeWatch.edit.hideServerFields`, default true). */
  hideServerFields: boolean;
  /** A Secret's values as text (after Reveal Secret Values); else masked. */
  revealSecrets: boolean;
}

/** The text to edit, and which Secret keys stayed base64 because they are not text. */
export interface EditableText {
  text: string;
  /** Secret `data` keys shown as base64 even when revealed (their bytes are not UTF-8 text). */
  binaryKeys: string[];
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A copy of `obj` with `apiVersion`, `kind`, `metadata` first, the rest in the server's order. */
function ordered(obj: KubeObject, options: Pick<EditableOptions, 'kind' | 'apiVersion'>): Record<string, unknown> {
  const { apiVersion, kind, metadata, ...rest } = structuredClone(obj);
  const out: Record<string, unknown> = {};
  if ((apiVersion ?? options.apiVersion) !== undefined) out.apiVersion = apiVersion ?? options.apiVersion;
  if ((kind ?? options.kind) !== undefined) out.kind = kind ?? options.kind;
  out.metadata = metadata;
  return Object.assign(out, rest);
}

function removePath(obj: Record<string, unknown>, path: FieldPath): void {
  let cur: unknown = obj;
  for (const s of path.slice(0, -1)) cur = isMap(cur) ? cur[s as string] : undefined;
  const last = path[path.length - 1] as string;
  if (!isMap(cur) || !(last in cur)) return;
  delete cur[last];
  // An annotations map left empty goes too, as the server leaves it out.
  if (path.length > 2 && Object.keys(cur).length === 0) removePath(obj, path.slice(0, -1));
}

/** True when `bytes` are UTF-8 text that survives a round trip. */
function isText(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) && !/[\u0000-\u0008\u000e-\u001f]/.test(text);
}

/** The object as the editor shows it (see the file comment). Never mutates `obj`. */
export function editableText(obj: KubeObject, options: EditableOptions): EditableText {
  const shown = ordered(obj, options);
  for (const p of ALWAYS_HIDDEN) removePath(shown, p);
  if (options.hideServerFields) for (const p of SERVER_FIELDS) removePath(shown, p);
  const binaryKeys: string[] = [];
  if (shown.kind === 'Secret') {
    for (const field of ['data', 'stringData']) {
      const values = shown[field];
      if (!isMap(values)) continue;
      shown[field] = Object.fromEntries(
        Object.entries(values).map(([k, v]) => {
          if (!options.revealSecrets) return [k, SECRET_MASK];
          if (field !== 'data' || typeof v !== 'string') return [k, v];
          const bytes = Buffer.from(v, 'base64');
          if (!isText(bytes)) {
            binaryKeys.push(k);
            return [k, v];
          }
          return [k, bytes.toString('utf8')];
        }),
      );
    }
    const annotations = (shown.metadata as Record<string, unknown>).annotations;
    if (!options.revealSecrets && isMap(annotations) && LAST_APPLIED_ANNOTATION in annotations) annotations[LAST_APPLIED_ANNOTATION] = SECRET_MASK;
  }
  return { text: dump(shown, { schema: EXACT_DUMP_SCHEMA, noRefs: true, lineWidth: -1, skipInvalid: true }), binaryKeys };
}

/**
 * The whole object to send for an edited `parsed` (the buffer's YAML): the server fields the
 * editor left out put back from `base`, and a Secret's values encoded back (revealed), or taken
 * from `base` where they still read the mask. Problems with masked values are found by
 * `bufferProblems`, before this.
 */
export function objectToSave(parsed: Record<string, unknown>, base: KubeObject, options: EditableOptions & { binaryKeys: readonly string[] }): KubeObject {
  const out = structuredClone(parsed) as KubeObject;
  if (!isMap(out.metadata)) out.metadata = {};
  const hidden = options.hideServerFields ? [...ALWAYS_HIDDEN, ...SERVER_FIELDS] : ALWAYS_HIDDEN;
  for (const path of hidden) {
    if (path[0] === 'metadata' && path[1] === 'managedFields') continue;
    const value = valueOf(base, path);
    if (value !== undefined && valueOf(out, path) === undefined) setPath(out as Record<string, unknown>, path, value);
  }
  const kind = out.kind ?? options.kind;
  if (kind === 'Secret' && isMap(out.data)) {
    const baseData = isMap(base.data) ? base.data : {};
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(out.data)) {
      if (v === SECRET_MASK && k in baseData) data[k] = baseData[k];
      else if (!options.revealSecrets || options.binaryKeys.includes(k) || typeof v !== 'string') data[k] = v;
      else data[k] = Buffer.from(v, 'utf8').toString('base64');
    }
    out.data = data;
  }
  if (kind === 'Secret' && !options.revealSecrets) {
    const annotations = out.metadata.annotations;
    const baseValue = base.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
    if (isMap(annotations) && annotations[LAST_APPLIED_ANNOTATION] === SECRET_MASK && baseValue !== undefined) annotations[LAST_APPLIED_ANNOTATION] = baseValue;
  }
  return out;
}

function valueOf(obj: unknown, path: FieldPath): unknown {
  let cur = obj;
  for (const s of path) cur = isMap(cur) ? cur[s as string] : undefined;
  return cur;
}

function setPath(obj: Record<string, unknown>, path: FieldPath, value: unknown): void {
  let cur = obj;
  for (const s of path.slice(0, -1)) {
    if (!isMap(cur[s as string])) cur[s as string] = {};
    cur = cur[s as string] as Record<string, unknown>;
  }
  cur[path[path.length - 1] as string] = structuredClone(value);
}
