import { ApiError, describeError, fieldManager } from '../base';
import { causeProblems, applyConflictsOf, yamlLocations, resolveFieldPath, type BufferProblem } from '../edit';
import { collectionPath, type KubeObject, type ResourceType } from '../informer';
import type { ObjectOrigin } from '../manager';
import { driftFields } from './drift';
import type { ManifestCluster } from './manifest-cluster';
import type { ManifestDocument } from './manifest-documents';
import type { DryRunFinding } from './manifest-state';

/**
 * A document's server-side dry-run apply against the live object, as `kubectl diff --server-side`
 * makes it: `dryRun=All`, Kube Watch's field manager, `fieldValidation=Strict` (unknown and
 * duplicate fields are refused, so they become problems on their lines). When the result differs
 * from the watch's object, the live object is read again (kubectl diff's GET) and the drift is
 * what differs from that read, so drift is never an artefact of two sources. A field-manager conflict
 * is not drift by itself: the dry run is made again forced, to show what an apply that takes the
 * fields would leave, and the lens names the owners.
 */

const APPLY = 'application/apply-patch+yaml';

/** Where a document goes: its type on the cluster, its namespace ('' for cluster-scoped). */
export interface DocumentTarget {
  spec: string;
  type: ResourceType;
  namespace: string;
  name: string;
}

export function objectPathOf(t: DocumentTarget): string {
  const type = t.type;
  return `${collectionPath(type, type.namespaced ? t.namespace : undefined)}/${encodeURIComponent(t.name)}`;
}

/** The configuration sent: the document, in its namespace, and (W02) the uid of the live object it was compared with. */
export function configurationOf(doc: ManifestDocument, t: DocumentTarget, live: KubeObject | undefined): Record<string, unknown> {
  const metadata = { ...(doc.object.metadata as Record<string, unknown>) };
  if (t.type.namespaced) metadata.namespace = t.namespace;
  else delete metadata.namespace;
  if (live?.metadata.uid) metadata.uid = live.metadata.uid;
  return { ...doc.object, metadata };
}

export interface DryRunOutcome {
  finding: DryRunFinding;
  /** The server's answer (what the cluster would hold), when it gave one. */
  result?: KubeObject;
  /** The live object it was compared with (the watch's, or the fresh read when they differed). */
  live?: KubeObject;
  /** Problems on the document's own text (offset by the caller). */
  problems: BufferProblem[];
  /** Conflicts, as the edit's apply reads them (for Apply's confirmation). */
  conflicts: ReturnType<typeof applyConflictsOf>;
}

/** The dry run of `doc` on `origin`'s connection against `live` (undefined: not on the cluster). */
export async function dryRunDocument(cluster: ManifestCluster, origin: ObjectOrigin, doc: ManifestDocument, t: DocumentTarget, live: KubeObject | undefined, signal: AbortSignal): Promise<DryRunOutcome> {
  const liveVersion = live?.metadata.resourceVersion ?? '';
  const body = JSON.stringify(configurationOf(doc, t, live));
  const send = (force: boolean) =>
    cluster.write<KubeObject>(origin, { method: 'PATCH', path: objectPathOf(t), query: { fieldManager: fieldManager(), dryRun: 'All', fieldValidation: 'Strict', ...(force ? { force: 'true' } : {}) }, body, contentType: APPLY }, signal);
  const compared = async (result: KubeObject, conflicts: readonly string[]): Promise<Pick<DryRunOutcome, 'finding' | 'live'>> => {
    if (!live) return { finding: { kind: 'same', liveVersion } };
    if (driftFields(live, result).length === 0) return { finding: { kind: 'same', liveVersion }, live };
    const fresh = await cluster.read<KubeObject>(origin, objectPathOf(t), signal);
    const fields = driftFields(fresh, result);
    return { finding: fields.length === 0 ? { kind: 'same', liveVersion } : { kind: 'drift', liveVersion, fields, conflicts }, live: fresh };
  };
  try {
    const result = await send(false);
    return { ...(await compared(result, [])), result, problems: [], conflicts: undefined };
  } catch (err) {
    if (signal.aborted || unanswered(err)) throw err;
    const conflicts = applyConflictsOf(err, doc.object);
    if (conflicts) {
      try {
        const result = await send(true);
        return { ...(await compared(result, [...new Set(conflicts.map((c) => c.manager))])), result, problems: [], conflicts };
      } catch (forced) {
        if (signal.aborted || unanswered(forced)) throw forced;
        return refusedOutcome(forced, doc, liveVersion);
      }
    }
    return refusedOutcome(err, doc, liveVersion);
  }
}

/**
 * The server did not judge the document: the request failed on the way, or the server or a
 * gateway was too busy (429, 502, 503, 504). Worth asking again; never a verdict. A 500 is one:
 * kube-apiserver 1.34 answers an apply of a field the schema does not declare with a 500
 * ("failed to create typed patch object … field not declared in schema").
 */
export function unanswered(err: unknown): boolean {
  return !(err instanceof ApiError) || [429, 502, 503, 504].includes(err.code);
}

function refusedOutcome(err: unknown, doc: ManifestDocument, liveVersion: string): DryRunOutcome {
  const problems = err instanceof ApiError ? [...causeProblems(err, doc.text, doc.object, doc.kind === 'Secret'), ...strictProblems(err, doc)] : [];
  const missingNamespace = err instanceof ApiError && err.code === 404 && /namespaces? "[^"]*" not found/.test(err.message);
  const message = missingNamespace ? `namespace ${/"([^"]*)"/.exec(err.message)?.[1] ?? ''} does not exist (yet)` : refusalWords(err);
  return { finding: { kind: 'refused', liveVersion, message, ...(missingNamespace ? { missingNamespace } : {}) }, problems, conflicts: undefined };
}

function refusalWords(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 403) return `may not apply: ${err.message}`;
    return err.message.replace(/^[A-Za-z]+(\.[a-z0-9.-]+)? "[^"]*" is invalid: /, '').replace(/^failed to create typed patch object \([^)]*\): /, '');
  }
  return describeError(err);
}

/**
 * Unknown and duplicate fields, on their lines: `fieldValidation=Strict`'s
 * (`strict decoding error: unknown field "spec.replica"`) and, for an apply, the schema's
 * (kube-apiserver 1.34: `failed to create typed patch object (...): .spec.replicaz: field not declared in schema`).
 */
export function strictProblems(err: ApiError, doc: Pick<ManifestDocument, 'text' | 'object'>): BufferProblem[] {
  const locations = yamlLocations(doc.text);
  const out: BufferProblem[] = [];
  const found: [string, string][] = [
    ...[...err.message.matchAll(/(unknown|duplicate) field "([^"]+)"/g)].map((m): [string, string] => [m[2], `${m[1]} field`]),
    ...[...err.message.matchAll(/(?:^|: )\.?([^\s:]+): field not declared in schema/g)].map((m): [string, string] => [m[1], 'unknown field (not in the schema of this kind)']),
  ];
  for (const [field, what] of found) {
    const path = resolveFieldPath(field, doc.object).path;
    out.push({ message: `${field}: ${what}`, range: locations.rangeFor(path), path });
  }
  return out;
}
