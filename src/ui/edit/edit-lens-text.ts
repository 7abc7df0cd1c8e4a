import { pathText, serverChangeText, type ServerChange } from '../../edit';
import type { FieldPath } from '../../edit';

/**
 * What an editable object document shows besides its YAML, never part of it: a status after the
 * first line (what the edit stands on, a change on the server, the last save and whether the
 * watch confirmed it), and lenses above it with the actions that apply.
 */

/** What one lens does when clicked; none: plain text. */
export type EditLensAction = 'showChanges' | 'rebase' | 'applyServerSide' | 'reveal' | 'hide' | 'save';

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
  /** The server changed the object again while the merge was open: how often, and its newest version (the merge's "On the server" shows it). */
  mergeMovedOn?: { times: number; resourceVersion: string };
}

/** The status line after the first line of the YAML: what the edit stands on, or what happened. */
export interface EditStatus {
  text: string;
  tone: 'info' | 'warning' | 'error';
}

/** The status for `state` at `now` (its age moves every second: drawn as a decoration, redrawn at once). */
export function editStatus(state: EditLensState, now: number): EditStatus {
  if (state.gone) return { text: `${capitalize(state.gone)}: saving cannot update it. Your edit is kept; Save As… keeps it in a file.`, tone: 'error' };
  if (state.merging) {
    const moved = state.mergeMovedOn && state.mergeMovedOn.times > 0 ? ` · the server changed again during the merge (${state.mergeMovedOn.times === 1 ? 'once' : `${state.mergeMovedOn.times} times`}, now rv ${state.mergeMovedOn.resourceVersion}): "On the server" shows it` : '';
    return { text: `Resolve the overlapping changes in the merge editor, then Complete Merge: that writes it to the cluster${moved}`, tone: 'warning' };
  }
  if (state.change && state.dirty) return { text: serverChangeText(state.change, now), tone: 'warning' };
  if (state.saved && !state.dirty) {
    const rv = state.saved.resourceVersion;
    const rebased = state.saved.rebased ? ` (${state.saved.rebased})` : '';
    if (state.saved.confirmed) return { text: `Saved: rv ${rv}, confirmed by the watch${rebased}`, tone: 'info' };
    if (state.saved.late) return { text: `Saved: rv ${rv}; the watch has not delivered it yet, so the view may be behind (the server took the write)${rebased}`, tone: 'warning' };
    return { text: `Saved: rv ${rv}, waiting for the watch to deliver it${rebased}`, tone: 'info' };
  }
  const save = state.mode === 'serverSideApply' ? 'Save applies it server-side (dry run first)' : 'Save updates the cluster';
  return { text: `Editing at rv ${state.resourceVersion} · ${save}`, tone: 'info' };
}

/**
 * The lenses above the YAML, in order: the actions that apply now. Their text changes only when
 * what is offered changes (an editor asks for lenses again only after a pause it learns from how
 * long they took, and each announcement restarts it: the moving status is a decoration instead).
 */
export function editLenses(state: EditLensState): EditLens[] {
  const out: EditLens[] = [];
  if (state.gone) return out;
  if (state.change && state.dirty) {
    out.push({ title: '$(diff) Show changes on the server', action: 'showChanges', tooltip: 'What changed on the server since this edit started (a diff)' });
    out.push({ title: '$(repo-pull) Rebase my edit', action: 'rebase', tooltip: 'Put your changes on top of the live object now (VS Code’s merge editor where both changed a field)' });
  }
  if (state.mode === 'update') out.push({ title: '$(cloud-upload) Apply server-side…', action: 'applyServerSide', tooltip: 'Server-side apply with the field manager kube-watch: a dry-run diff first, conflicts explained' });
  if (state.secret) {
    // Revealed values are never typed into the buffer (W12: VS Code backs up unsaved buffers to disk): read-only while they show.
    if (!state.secret.revealed) out.push({ title: '$(eye-closed) Values masked: Reveal Secret Values to change them', action: 'reveal', tooltip: 'Add or remove keys by typing the YAML here (a new value under stringData:)' });
    else {
      const binary = state.secret.binaryKeys.length > 0 ? `; ${state.secret.binaryKeys.join(', ')} stay${state.secret.binaryKeys.length === 1 ? 's' : ''} base64 (not text)` : '';
      out.push({ title: `$(eye) Values as text, read-only: Edit value… writes one to the cluster${binary}`, tooltip: 'Revealed values never go into an unsaved buffer, so never into VS Code’s backups on disk' });
      out.push({ title: '$(eye-closed) Hide Secret Values (to add or remove keys)', action: 'hide', tooltip: 'Masks the values again and makes the document editable' });
    }
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
