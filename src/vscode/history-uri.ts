import * as vscode from 'vscode';
import type { WatchEntry } from '../manager';
import { EDIT_SCHEME, OBJECT_SCHEME, parseObjectUri } from './object-documents';

/** The URI scheme of history documents: stored versions, and live objects for "Compare with Live". */
export const HISTORY_SCHEME = 'kubewatch-history';

/** An object of a watch, by name: what the commands act on. */
export interface Target {
  entryId: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
  /** The incarnation to show first, when known (a gone one picked from a list). */
  uid?: string;
}

/** What a history document URI names. */
export type DocRef =
  | { type: 'version'; target: Target; uid: string; seq: number }
  /** The empty left side of a diff against a version that created the object. */
  | { type: 'empty'; target: Target }
  | { type: 'live'; target: Target };

function encodeQuery(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** `kubewatch-history:/context/resource/namespace/name@rv.yaml?h=…`: the path for people, the query for us. */
export function historyUri(ref: DocRef, entry: WatchEntry | undefined, pathName: string): vscode.Uri {
  const clean = (s: string) => s.replace(/[/\\?#]/g, '_') || '_';
  const segments = [entry?.context || 'current-context', entry?.resource ?? 'objects', ref.target.namespace || '_cluster', `${pathName}.yaml`].map(clean);
  const t = ref.target;
  const payload = ref.type === 'version' ? ['v', t.entryId, t.namespace, t.name, ref.uid, ref.seq] : [ref.type === 'empty' ? 'e' : 'l', t.entryId, t.namespace, t.name];
  return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${segments.join('/')}`, query: `h=${encodeQuery(payload)}` });
}

/** The reference a `kubewatch-history:` URI carries, or undefined for a foreign or damaged one. */
export function parseHistoryUri(uri: vscode.Uri): DocRef | undefined {
  if (uri.scheme !== HISTORY_SCHEME) return undefined;
  const encoded = new URLSearchParams(uri.query).get('h');
  if (!encoded) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || !v.slice(1, 4).every((s) => typeof s === 'string')) return undefined;
    const target: Target = { entryId: v[1] as string, namespace: v[2] as string, name: v[3] as string };
    if (v[0] === 'v' && typeof v[4] === 'string' && typeof v[5] === 'number') return { type: 'version', target, uid: v[4], seq: v[5] };
    if (v[0] === 'e') return { type: 'empty', target };
    if (v[0] === 'l') return { type: 'live', target };
  } catch {
    // a damaged query: not one of ours
  }
  return undefined;
}

/**
 * A command argument as a target: an object tree node, a `{ entryId, namespace, name }`, a
 * `kubewatch:` or `kubewatch-history:` URI (what editor title menus pass); with none, the active
 * editor's document when it shows an object.
 */
export function targetOf(arg: unknown): Target | undefined {
  if (arg instanceof vscode.Uri) return targetOfUri(arg);
  if (typeof arg === 'object' && arg !== null) {
    const { entryId, namespace, name, kind, uid } = arg as Partial<Target> & { kind?: unknown };
    if (kind !== undefined && kind !== 'object') return undefined;
    if (typeof entryId === 'string' && typeof namespace === 'string' && typeof name === 'string') return { entryId, namespace, name, ...(typeof uid === 'string' ? { uid } : {}) };
    return undefined;
  }
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && targetOfUri(uri);
}

function targetOfUri(uri: vscode.Uri): Target | undefined {
  if (uri.scheme === OBJECT_SCHEME || uri.scheme === EDIT_SCHEME) return parseObjectUri(uri);
  const ref = parseHistoryUri(uri);
  if (!ref) return undefined;
  return ref.type === 'version' ? { ...ref.target, uid: ref.uid } : ref.target;
}
