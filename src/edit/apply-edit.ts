import { dump } from 'js-yaml';
import { ApiError } from '../base';
import type { KubeObject } from '../informer';
import type { BufferProblem } from './buffer-problems';
import { LAST_APPLIED_ANNOTATION } from './editable-object';
import { FIELD_MANAGER, type EditSession } from './edit-session';
import { pathText, resolveFieldPath, type FieldPath } from './field-path';
import { refusalOf, type Refusal } from './refusal';
import { changedPaths } from './three-way-merge';
import { yamlLocations } from './yaml-locations';

/**
 * Server-side apply of an edited buffer, with Kube Watch's own field manager: first a dry run
 * (`dryRun=All`) whose answer is what the server would store, shown as a diff against the live
 * object; then the apply. A field another manager owns and the buffer sets to another value is
 * a conflict: each is explained (which manager owns which field, and that forcing takes it from
 * them), and the apply is forced only when the user confirms exactly that.
 *
 * What is applied is the buffer's object without what the server writes (status, uid,
 * resourceVersion, managedFields, ...): the configuration the user means to own. A field left
 * out of it stays as it is where another manager owns it (server-side apply removes only the
 * fields this manager applied before): the dry-run diff shows it.
 */

/** One field another manager owns, from a 409's FieldManagerConflict cause. */
export interface ApplyConflict {
  /** The field as the server names it: `.data.b`. */
  field: string;
  /** The manager that owns it: `kube-controller-manager`. */
  manager: string;
  /** The field resolved in the buffer, when it is there. */
  path?: FieldPath;
}

export type ApplyPreview =
  | { kind: 'problems'; problems: BufferProblem[] }
  /** The dry run passed: what the server would store, and the fields that would change. */
  | { kind: 'preview'; result: KubeObject; changed: FieldPath[] }
  | { kind: 'conflicts'; conflicts: ApplyConflict[]; problems: BufferProblem[] }
  | { kind: 'refused'; refusal: Refusal };

export type ApplyOutcome = { kind: 'applied'; object: KubeObject } | Exclude<ApplyPreview, { kind: 'preview' }>;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The configuration to apply: the object without the server's fields, as YAML. */
export function applyConfiguration(obj: KubeObject): string {
  const { status: _s, metadata, ...rest } = structuredClone(obj);
  const { uid: _u, resourceVersion: _r, generation: _g, creationTimestamp: _c, selfLink: _l, managedFields: _m, ...meta } = metadata;
  if (isMap(meta.annotations)) {
    const { [LAST_APPLIED_ANNOTATION]: _a, ...annotations } = meta.annotations;
    if (Object.keys(annotations).length > 0) meta.annotations = annotations as Record<string, string>;
    else delete meta.annotations;
  }
  return dump({ ...rest, metadata: meta }, { noRefs: true, lineWidth: -1 });
}

/** The conflicts a 409 of an apply names, or undefined when it is not one. */
export function applyConflictsOf(err: unknown, bufferObject: unknown): ApplyConflict[] | undefined {
  if (!(err instanceof ApiError) || err.code !== 409) return undefined;
  const causes = (err.status.details?.causes ?? []).filter((c) => c.reason === 'FieldManagerConflict');
  if (causes.length === 0) return undefined;
  return causes.map((c) => {
    const manager = /conflict with "([^"]*)"/.exec(c.message ?? '')?.[1] ?? 'another manager';
    const field = c.field ?? '';
    const resolved = resolveFieldPath(field, bufferObject);
    return { field, manager, ...(resolved.complete ? { path: resolved.path } : {}) };
  });
}

/** The conflicts in words: one line per manager, naming its fields. */
export function conflictLines(conflicts: readonly ApplyConflict[]): string[] {
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path ? pathText(c.path) : c.field.replace(/^\./, '')]);
  return [...byManager].map(([manager, fields]) => `${fields.join(', ')} ${fields.length === 1 ? 'is' : 'are'} managed by ${manager}: forcing the apply makes Kube Watch their manager and takes ${fields.length === 1 ? 'it' : 'them'} from ${manager}${manager === 'kube-controller-manager' || /controller|operator|hpa|autoscaler/i.test(manager) ? ', which may set them back' : ''}.`);
}

function conflictProblems(conflicts: readonly ApplyConflict[], text: string): BufferProblem[] {
  const locations = yamlLocations(text);
  return conflicts.map((c) => ({
    message: `${c.path ? pathText(c.path) : c.field} is managed by ${c.manager}: server-side apply conflicts here (force takes it from ${c.manager})`,
    range: locations.rangeFor(c.path ?? []),
    ...(c.path ? { path: c.path } : {}),
  }));
}

/** The dry run of applying `text` (see the file comment). */
export async function previewApply(session: EditSession, text: string, signal: AbortSignal, force = false): Promise<ApplyPreview> {
  return (await send(session, text, signal, true, force)) as ApplyPreview;
}

/** Applies `text` for real; `force` only after the user confirmed taking the conflicting fields. */
export async function applyEdit(session: EditSession, text: string, signal: AbortSignal, force: boolean): Promise<ApplyOutcome> {
  return (await send(session, text, signal, false, force)) as ApplyOutcome;
}

async function send(session: EditSession, text: string, signal: AbortSignal, dryRun: boolean, force: boolean): Promise<ApplyPreview | ApplyOutcome> {
  const ours = session.objectOf(text);
  if ('problems' in ours) return { kind: 'problems', problems: ours.problems };
  const query: Record<string, string> = { fieldManager: FIELD_MANAGER };
  if (dryRun) query.dryRun = 'All';
  if (force) query.force = 'true';
  try {
    const summary = `server-side apply${force ? ', forced' : ''}`;
    const result = await session.write<KubeObject>('apply', { method: 'PATCH', path: session.path, query, body: applyConfiguration(ours.object), contentType: 'application/apply-patch+yaml' }, signal, summary);
    if (dryRun) {
      const live = session.live ?? session.base;
      const changed = changedPaths(strip(live), strip(result));
      return { kind: 'preview', result, changed };
    }
    session.adopt(result);
    return { kind: 'applied', object: result };
  } catch (err) {
    const conflicts = applyConflictsOf(err, ours.object);
    if (conflicts) return { kind: 'conflicts', conflicts, problems: conflictProblems(conflicts, text) };
    return { kind: 'refused', refusal: refusalOf(err, session.what, text, ours.object, session.isSecret) };
  }
}

/** Without what changes on every write, for the preview's diff. */
function strip(obj: KubeObject): unknown {
  return { ...obj, metadata: { ...obj.metadata, managedFields: undefined, resourceVersion: undefined, generation: undefined } };
}
