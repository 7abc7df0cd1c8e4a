import { ApiError, fieldManager, stringifyExactJson } from '../base';
import type { KubeObject } from '../informer';
import { applyConflictsOf, conflictProblems, unconfirmedConflicts, type ApplyConflict } from './apply-conflicts';
import { applyIntent, type ApplyIntent, type KeptRemoval, type ReAdded } from './apply-intent';
import type { BufferProblem } from './buffer-problems';
import { withoutManagedFields, type EditSession } from './edit-session';
import type { FieldPath } from './field-path';
import { keyedPathText, type ListKeys } from './keyed-path';
import { listKeysOf } from './merge-keys/shape-list-keys';
import { refusalOf, type Refusal } from './refusal';
import { changedPaths } from './three-way-merge';

/**
 * Server-side apply of an edit, as a plan that is previewed and then sent as it was previewed:
 * - the configuration is the user's intent (apply-intent.ts), so Kube Watch's field manager owns
 *   only what the user changed (and what it applied before), never the whole object;
 * - the preview reads the object now, and dry-runs (`dryRun=All`) the configuration carrying that
 *   read's resourceVersion; the real apply carries the same resourceVersion, so an object that
 *   moved since the preview is refused by the server (409), never applied onto unseen;
 * - force is previewed too: a forced preview first dry-runs without force, and forces only when
 *   every conflict then is one the user confirmed; a conflict that appeared since is shown, not
 *   taken. The forced apply carries the forced preview's resourceVersion, so it takes exactly
 *   the conflicts that preview saw;
 * - a change that would re-add what the server removed since the edit's base (a stale buffer)
 *   is left out unless the preview is asked to re-add it (`reAdd`).
 */

/** What the preview made and the apply sends, unchanged. */
export interface ApplyPlan {
  /** The configuration, with the resourceVersion the preview was made on. */
  body: string;
  resourceVersion: string;
  force: boolean;
  /** The conflicts the forced preview saw and the user confirmed taking (empty unless `force`). */
  confirmed: ApplyConflict[];
  fieldManager: string;
  intent: ApplyIntent;
}

/** What the preview tells beside the dry run: what stays and what comes back. */
export interface ApplyNotes {
  /** Fields the user removed that server-side apply cannot remove (others manage them). */
  kept: KeptRemoval[];
  /** Fields the server removed since the edit's base that the user's change would re-add. */
  reAdded: ReAdded[];
  /** When Kube Watch saw the server's version without them (ms since the epoch; 0 when unknown). */
  removedAt: number;
}

export type ApplyPreview =
  | { kind: 'problems'; problems: BufferProblem[] }
  /** The dry run passed: the object now, what the server would store, the fields that would change, the plan to apply. */
  | ({ kind: 'preview'; live: KubeObject; result: KubeObject; changed: FieldPath[]; plan: ApplyPlan } & ApplyNotes)
  /** Fields other managers own; `unconfirmed`: those not among the conflicts a forced preview was told to take. */
  | ({ kind: 'conflicts'; conflicts: ApplyConflict[]; unconfirmed: ApplyConflict[]; problems: BufferProblem[] } & ApplyNotes)
  | { kind: 'refused'; refusal: Refusal };

export type ApplyOutcome =
  | { kind: 'applied'; object: KubeObject }
  /** The object changed after the preview: nothing applied; `conflicts`: conflicts now that were not confirmed (a forced plan). */
  | { kind: 'moved'; message: string; conflicts: ApplyConflict[] }
  | { kind: 'conflicts'; conflicts: ApplyConflict[]; unconfirmed: ApplyConflict[]; problems: BufferProblem[] }
  | { kind: 'refused'; refusal: Refusal };

export interface ApplyPreviewOptions {
  /** Preview a forced apply that takes these conflicts (those the user confirmed) and no other. */
  force?: readonly ApplyConflict[];
  /** Put back what the server removed since the base where the user changed it. */
  reAdd?: boolean;
  /** Merge keys of lists; unless given, those of the object's type (its merge shape: the OpenAPI's keys, a CRD's). */
  listKeys?: ListKeys;
}

const APPLY = 'application/apply-patch+yaml';

function isStaleVersion(err: unknown): boolean {
  return err instanceof ApiError && err.code === 409 && !applyConflictsOf(err, {});
}

/** The dry run of applying the buffer `text` (see the file comment). */
export async function previewApply(session: EditSession, text: string, signal: AbortSignal, options: ApplyPreviewOptions = {}): Promise<ApplyPreview> {
  const ours = session.objectOf(text);
  if ('problems' in ours) return { kind: 'problems', problems: ours.problems };
  const refused = (err: unknown): ApplyPreview => ({ kind: 'refused', refusal: refusalOf(err, session.what, text, ours.object, session.isSecret) });
  for (let attempt = 0; ; attempt++) {
    let fresh: KubeObject;
    try {
      fresh = await session.read(signal);
    } catch (err) {
      return refused(err);
    }
    session.noteLive(fresh);
    session.noteManagedFields(fresh);
    const recreated = session.recreated();
    if (recreated) return { kind: 'refused', refusal: recreated };
    const manager = fieldManager();
    const intent = applyIntent({ base: session.base, ours: ours.object, live: fresh, manager, apiVersion: session.identity.apiVersion, kind: session.identity.kind, reAdd: options.reAdd, listKeys: options.listKeys ?? listKeysOf(session.mergeShape()) });
    const resourceVersion = fresh.metadata.resourceVersion ?? '';
    const notes: ApplyNotes = { kept: intent.kept, reAdded: intent.reAdded, removedAt: intent.reAdded.length > 0 ? (session.serverChange()?.at ?? 0) : 0 };
    const body = stringifyExactJson({ ...intent.configuration, metadata: { ...(intent.configuration.metadata as object), resourceVersion } });
    const plan: ApplyPlan = { body, resourceVersion, force: false, confirmed: [], fieldManager: manager, intent };
    const dryRun = (force: boolean) => session.write<KubeObject>('apply', { method: 'PATCH', path: session.path, query: { fieldManager: manager, dryRun: 'All', ...(force ? { force: 'true' } : {}) }, body, contentType: APPLY }, signal, summaryOf(intent, force));
    const preview = (result: KubeObject): ApplyPreview => ({ kind: 'preview', live: withoutManagedFields(fresh), result, changed: changedPaths(strip(fresh), strip(result)), plan, ...notes });
    try {
      return preview(await dryRun(false));
    } catch (err) {
      if (isStaleVersion(err) && attempt === 0) continue; // moved between the read and the dry run: read again, once
      const conflicts = applyConflictsOf(err, ours.object);
      if (!conflicts) return refused(err);
      const unconfirmed = options.force ? unconfirmedConflicts(conflicts, options.force) : conflicts;
      if (!options.force || unconfirmed.length > 0) return { kind: 'conflicts', conflicts, unconfirmed, problems: conflictProblems(conflicts, text), ...notes };
      plan.force = true;
      plan.confirmed = conflicts;
    }
    try {
      return preview(await dryRun(true));
    } catch (err) {
      if (isStaleVersion(err) && attempt === 0) continue;
      return refused(err);
    }
  }
}

/**
 * Applies a previewed plan as it was previewed (its configuration, resourceVersion and force).
 * An object that moved since the preview is refused by the server: `moved`, nothing applied; for
 * a forced plan, the conflicts now that the user did not confirm are named.
 */
export async function applyEdit(session: EditSession, plan: ApplyPlan, text: string, signal: AbortSignal): Promise<ApplyOutcome> {
  const send = (query: Record<string, string>, body: string) => session.write<KubeObject>('apply', { method: 'PATCH', path: session.path, query: { fieldManager: plan.fieldManager, ...query }, body, contentType: APPLY }, signal, summaryOf(plan.intent, plan.force && query.dryRun === undefined));
  const ours = session.objectOf(text);
  const bufferObject = 'object' in ours ? ours.object : {};
  try {
    const result = await send(plan.force ? { force: 'true' } : {}, plan.body);
    session.adopt(result);
    return { kind: 'applied', object: result };
  } catch (err) {
    const conflicts = applyConflictsOf(err, bufferObject);
    if (conflicts) return { kind: 'conflicts', conflicts, unconfirmed: unconfirmedConflicts(conflicts, plan.confirmed), problems: conflictProblems(conflicts, text) };
    if (!isStaleVersion(err)) return { kind: 'refused', refusal: refusalOf(err, session.what, text, bufferObject, session.isSecret) };
    // The uid in the configuration: a deleted object is not created again (409 "uid mismatch ... no existing object").
    if (err instanceof ApiError && /no existing object/.test(err.message)) return { kind: 'moved', message: `${session.what} was deleted on the server since the preview: nothing was applied, and it was not created again. Your edit is kept.`, conflicts: [] };
    const message = `${session.what} changed on the server since the preview (rv ${plan.resourceVersion}): nothing was applied; preview again. Your edit is kept.`;
    if (!plan.force) return { kind: 'moved', message, conflicts: [] };
    // Which conflicts a forced apply would take now: the same configuration, dry run, no resourceVersion, not forced.
    const unversioned = stringifyExactJson({ ...plan.intent.configuration });
    const now = await send({ dryRun: 'All' }, unversioned).then(
      () => [],
      (e: unknown) => applyConflictsOf(e, bufferObject) ?? [],
    );
    return { kind: 'moved', message, conflicts: unconfirmedConflicts(now, plan.confirmed) };
  }
}

/** The journal's few words: the fields the user changed. */
function summaryOf(intent: ApplyIntent, force: boolean): string {
  const fields = intent.changed.slice(0, 3).map(keyedPathText);
  return `server-side apply${force ? ', forced' : ''}${fields.length > 0 ? `: ${fields.join(', ')}` : ''}`;
}

/** Without what changes on every write, for the preview's diff. */
function strip(obj: KubeObject): unknown {
  return { ...obj, metadata: { ...obj.metadata, managedFields: undefined, resourceVersion: undefined, generation: undefined } };
}
