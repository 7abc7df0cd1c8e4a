import { load } from 'js-yaml';
import { EXACT_LOAD_SCHEMA } from './exact-yaml';
import type { KubeObject } from '../informer';
import { SECRET_MASK } from './editable-object';
import { pathText, type FieldPath } from './field-path';
import { yamlLocations, yamlSyntaxProblem, type TextRange } from './yaml-locations';

/**
 * What keeps an edited buffer from being sent: nothing that fails here reaches the server.
 * YAML that does not parse, a document that is not one object, an object that is another one
 * (apiVersion, kind, name or namespace changed: an edit changes one object, it neither renames
 * nor moves it), and a Secret value changed while masked (a value is changed after Reveal Secret
 * Values, through Edit value…, never in the buffer: W12). Each problem is placed on the line it is about.
 */

export interface BufferProblem {
  message: string;
  range: TextRange;
  /** The field it is about, when there is one. */
  path?: FieldPath;
}

export interface ParsedBuffer {
  /** The buffer's object, when it is one and nothing below is wrong. */
  object?: Record<string, unknown>;
  problems: BufferProblem[];
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What identifies the object being edited, as the editor opened it. */
export interface EditedIdentity {
  apiVersion: string;
  kind: string;
  name: string;
  /** '' for a cluster-scoped object. */
  namespace: string;
}

/** The identity of `base` (kind and apiVersion from the watch when the object lacks them). */
export function identityOf(base: KubeObject, kind: string, apiVersion: string): EditedIdentity {
  return { apiVersion: base.apiVersion ?? apiVersion, kind: base.kind ?? kind, name: base.metadata.name ?? '', namespace: base.metadata.namespace ?? '' };
}

/** Parses and checks an edited buffer against the object it edits. */
export function parseBuffer(text: string, identity: EditedIdentity, secret: { revealed: boolean; base?: KubeObject; binaryKeys?: readonly string[] } = { revealed: true }): ParsedBuffer {
  const syntax = yamlSyntaxProblem(text);
  if (syntax) return { problems: [{ message: syntax.message, range: syntax.range }] };
  const parsed: unknown = load(text, { schema: EXACT_LOAD_SCHEMA });
  const locations = yamlLocations(text);
  if (!isMap(parsed)) return { problems: [{ message: `The document must be one ${identity.kind} object (a YAML map), as it was opened.`, range: locations.rangeFor([]) }] };
  const problems: BufferProblem[] = [];
  const what = `${identity.kind} ${identity.namespace ? `${identity.namespace}/` : ''}${identity.name}`;
  const check = (path: FieldPath, expected: string, label: string, optional = false) => {
    let value: unknown = parsed;
    for (const s of path) value = isMap(value) ? value[s as string] : undefined;
    if (value === expected || (optional && (value === undefined || value === ''))) return;
    const shown = value === undefined ? 'missing' : JSON.stringify(value);
    problems.push({
      message: `${label} is ${shown}, but this editor changes ${what} (${label} ${JSON.stringify(expected)}): an edit cannot rename, move or retype an object. Put it back, or create another object with kubectl.`,
      range: locations.rangeFor(path),
      path,
    });
  };
  check(['apiVersion'], identity.apiVersion, 'apiVersion');
  check(['kind'], identity.kind, 'kind');
  check(['metadata', 'name'], identity.name, 'metadata.name');
  if (identity.namespace) check(['metadata', 'namespace'], identity.namespace, 'metadata.namespace', true);
  if (identity.kind === 'Secret') problems.push(...secretProblems(parsed, locations, secret));
  return problems.length > 0 ? { problems } : { object: parsed, problems };
}

function secretProblems(parsed: Record<string, unknown>, locations: ReturnType<typeof yamlLocations>, secret: { revealed: boolean; base?: KubeObject; binaryKeys?: readonly string[] }): BufferProblem[] {
  const out: BufferProblem[] = [];
  const baseData = secret.base && isMap(secret.base.data) ? secret.base.data : {};
  for (const field of ['data', 'stringData']) {
    const values = parsed[field];
    if (!isMap(values)) continue;
    for (const [k, v] of Object.entries(values)) {
      const path = [field, k];
      if (!secret.revealed && v !== SECRET_MASK) {
        out.push({ message: `${pathText(path)}: Secret values are masked here. Reveal Secret Values, then Edit value… above the key writes a new one to the cluster (values are never typed into this buffer, which VS Code backs up to disk).`, range: locations.rangeFor(path), path });
      } else if (!secret.revealed && field === 'data' && !(k in baseData)) {
        out.push({ message: `${pathText(path)}: the mask is not a value. Add a key with Reveal Secret Values, then Edit value… (New key…).`, range: locations.rangeFor(path), path });
      } else if (secret.revealed && field === 'data' && secret.binaryKeys?.includes(k) && (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0)) {
        out.push({ message: `${pathText(path)}: this value is binary and stays base64; this is not valid base64.`, range: locations.rangeFor(path), path });
      }
    }
  }
  return out;
}
