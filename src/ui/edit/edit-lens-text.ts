import { pathText, serverChangeText, type ServerChange } from '../../edit';
import type { FieldPath } from '../../edit';

/**
 * The lines above an editable object document (CodeLenses: text of their own, never part of the
 * YAML): what the editor stands on, a change on the server with its actions, the last save and
 * whether the watch has confirmed it, and a Secret's state.
 */

/** What one lens does when clicked; none: plain text. */
export type EditLensAction = 'showChanges' | 'rebase' | 'applyServerSide' | 'reveal' | 'save';

export interface EditLens {
  title: string;
  action?: EditLensAction;
  tooltip?: string;
}

export interface EditLensState {
  /** The resourceVersion the edit stands on. */
  resourceVersion: string;
  /** The user's text differs from it. */
  dirty: boolean;
  change?: ServerChange;
  gone?: string;
  saved?: { resourceVersion: string; confirmed: boolean; late?: boolean; rebased?: string };
  secret?: { revealed: boolean; binaryKeys: readonly string[] };
  /** `kubeWatch.edit.saveMode`. */
  mode: 'update' | 'serverSideApply';
  /** A merge waits in the merge editor. */
  merging: boolean;
}

/** The lenses, in order, for `state` at `now`. */
export function editLenses(state: EditLensState, now: number): EditLens[] {
  const out: EditLens[] = [];
  if (state.gone) {
    out.push({ title: `$(trash) ${capitalize(state.gone)}: saving cannot update it. Your edit is kept; Save As… keeps it in a file.` });
    return out;
  }
  if (state.merging) out.push({ title: '$(git-merge) Resolve the overlapping changes in the merge editor, then Complete Merge; nothing is written until you save again' });
  if (state.change && state.dirty) {
    out.push({ title: `$(warning) ${serverChangeText(state.change, now)}` });
    out.push({ title: 'Show changes', action: 'showChanges', tooltip: 'What changed on the server since this edit started (a diff)' });
    out.push({ title: 'Rebase my edit', action: 'rebase', tooltip: 'Put your changes on top of the live object now (VS Code’s merge editor where both changed a field)' });
  } else if (state.saved && !state.dirty) {
    const rv = state.saved.rebased ? `${state.saved.resourceVersion} (${state.saved.rebased})` : state.saved.resourceVersion;
    if (state.saved.confirmed) out.push({ title: `$(check) Saved: rv ${rv}, confirmed by the watch` });
    else if (state.saved.late) out.push({ title: `$(watch) Saved: rv ${rv}; the watch has not delivered it yet, so the view may be behind (the server took the write)` });
    else out.push({ title: `$(sync~spin) Saved: rv ${rv}, waiting for the watch to deliver it` });
  } else {
    const save = state.mode === 'serverSideApply' ? 'Save applies it server-side (dry run first)' : 'Save updates the cluster';
    out.push({ title: `$(edit) Editing at rv ${state.resourceVersion} · ${save}`, action: state.dirty ? 'save' : undefined, tooltip: 'An update with this resourceVersion: a change on the server meanwhile is merged, never overwritten' });
  }
  if (state.mode === 'update') out.push({ title: 'Apply server-side…', action: 'applyServerSide', tooltip: 'Server-side apply with the field manager kube-watch: a dry-run diff first, conflicts explained' });
  if (state.secret) {
    if (!state.secret.revealed) out.push({ title: '$(eye-closed) Values masked: Reveal Secret Values to edit them', action: 'reveal' });
    else if (state.secret.binaryKeys.length > 0) out.push({ title: `$(eye) Values as text; ${state.secret.binaryKeys.join(', ')} stay${state.secret.binaryKeys.length === 1 ? 's' : ''} base64 (not text)` });
    else out.push({ title: '$(eye) Values as text: they are encoded back when saved' });
  }
  return out;
}

/** The fields of a dry run, in a sentence: "data.TIMEOUT, metadata.labels.tier". */
export function fieldList(fields: readonly FieldPath[], max = 6): string {
  const named = fields.slice(0, max).map(pathText);
  return named.join(', ') + (fields.length > max ? `, and ${fields.length - max} more` : '');
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
