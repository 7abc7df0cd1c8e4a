import { ApiError } from '../base';
import type { BufferProblem } from './buffer-problems';
import { pathText, resolveFieldPath, type FieldPath } from './field-path';
import { yamlLocations } from './yaml-locations';

/**
 * Server-side apply's field-manager conflicts: read from a 409's causes, compared (force covers
 * only the conflicts the user confirmed), said in words and placed on the buffer's lines.
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

const conflictKey = (c: ApplyConflict) => `${c.manager}\u0000${c.field}`;

/** The conflicts of `now` that are not among `confirmed` (same field, same manager). */
export function unconfirmedConflicts(now: readonly ApplyConflict[], confirmed: readonly ApplyConflict[]): ApplyConflict[] {
  const known = new Set(confirmed.map(conflictKey));
  return now.filter((c) => !known.has(conflictKey(c)));
}

/** The conflicts in words: one line per manager, naming its fields; `self`: the field manager the apply is sent as. */
export function conflictLines(conflicts: readonly ApplyConflict[], self?: string): string[] {
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path ? pathText(c.path) : c.field.replace(/^\./, '')]);
  return [...byManager].map(([owner, fields]) =>
    owner === self
      ? // kube-apiserver counts a manager's updates (a save, an action) apart from its applies.
        `${fields.join(', ')} ${fields.length === 1 ? 'was' : 'were'} last written by ${owner} as an update (a save or an action), which server-side apply counts as another manager: forcing the apply makes its apply own ${fields.length === 1 ? 'it' : 'them'}.`
      : `${fields.join(', ')} ${fields.length === 1 ? 'is' : 'are'} managed by ${owner}: forcing the apply makes Kube Watch their manager and takes ${fields.length === 1 ? 'it' : 'them'} from ${owner}${owner === 'kube-controller-manager' || /controller|operator|hpa|autoscaler/i.test(owner) ? ', which may set them back' : ''}.`);
}

/** Each conflict on its line of the buffer. */
export function conflictProblems(conflicts: readonly ApplyConflict[], text: string): BufferProblem[] {
  const locations = yamlLocations(text);
  return conflicts.map((c) => ({
    message: `${c.path ? pathText(c.path) : c.field} is managed by ${c.manager}: server-side apply conflicts here (force takes it from ${c.manager})`,
    range: locations.rangeFor(c.path ?? []),
    ...(c.path ? { path: c.path } : {}),
  }));
}
