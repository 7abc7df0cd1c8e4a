import * as vscode from 'vscode';
import { conflictingListsOnOneLine } from '../../edit/merge-view-texts';
import type { MergeConflict } from '../../edit/three-way-merge';
import type { KubeObject } from '../../informer';
import type { OpenEdit } from './edit-documents';
import { editFileName, mergeUriOf, type Snapshots } from './edit-uri';

/**
 * Overlapping changes go to VS Code's merge editor: the left input is the user's edit (their
 * text as typed), the right one the live object (rendered as the editor renders objects), the
 * base the version the edit started from; the result is a scratch document (`….merge.yaml`)
 * that starts as one whole-file conflict, so the merge editor computes the merge itself and
 * leaves the overlapping lines to the user. An edit has one merge at a time (reused while the
 * server keeps changing). Completing the merge (the title bar's Complete Merge, the result's
 * lens, or saving the result) puts the result into the edit's buffer, standing on the live
 * version it was merged with, and saves the edit: one action writes the merge; the merge editor
 * closes once the write is done.
 * A whole list the three-way merge found in conflict (both sides reordered it, ...) is written on
 * one line in the three texts, so that the merge editor shows it as a conflict instead of merging
 * its lines into a list with an item twice.
 */

/** Git's conflict markers around the whole text: makes the merge editor compute the result from its inputs. */
export function conflictMarkerText(ours: string, base: string, theirs: string): string {
  const nl = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);
  return `<<<<<<< Your edit\n${nl(ours)}||||||| Where your edit started\n${nl(base)}=======\n${nl(theirs)}>>>>>>> On the server\n`;
}

/** True while a text still holds conflict markers (the merge is not complete). */
export function hasConflictMarkers(text: string): boolean {
  return /^<<<<<<< /m.test(text) && /^>>>>>>> /m.test(text);
}

/**
 * Opens the merge of `buffer` (the buffer's text) onto `theirs` for `edit` (`conflicts` as the
 * three-way merge found them), or, while the edit already has one, brings that one back with its
 * inputs moved on (the server changed again: a controller rewriting a field must not open a merge
 * per save): the inputs' tabs show the new texts, the lens of the result says so, and a result the
 * user has not touched starts again.
 */
export async function openMergeEditor(edit: OpenEdit, buffer: string, theirs: KubeObject, snapshots: Snapshots, entryLabel: string | undefined, conflicts: readonly MergeConflict[] = []): Promise<void> {
  const session = edit.session;
  const { base: baseText, ours: oursText, theirs: theirsText } = conflictingListsOnOneLine({ base: session.renderObject(session.base), ours: buffer, theirs: session.renderObject(theirs) }, conflicts);
  const name = edit.ref.name;
  const previous = edit.merge?.inputs;
  const text = conflictMarkerText(oursText, baseText, theirsText);
  let inputs = previous;
  if (inputs) {
    snapshots.set(inputs.base, baseText);
    snapshots.set(inputs.input1, oursText);
    snapshots.set(inputs.input2, theirsText);
  } else {
    inputs = {
      base: snapshots.add(`${name} (where your edit started).yaml`, baseText),
      input1: snapshots.add(`${name} (your edit).yaml`, oursText),
      input2: snapshots.add(`${name} (on the server).yaml`, theirsText),
    };
  }
  const movedOn = previous !== undefined && edit.merge?.theirs.metadata.resourceVersion !== theirs.metadata.resourceVersion;
  const serverChanges = (edit.merge?.serverChanges ?? 0) + (movedOn ? 1 : 0);
  edit.merge = { text, theirs, inputs, serverChanges, ours: buffer, conflicts };
  await vscode.commands.executeCommand('_open.mergeEditor', {
    base: inputs.base,
    input1: { uri: inputs.input1, title: 'Your edit', description: `${session.what}`, detail: 'not saved' },
    input2: { uri: inputs.input2, title: 'On the server', description: `rv ${theirs.metadata.resourceVersion ?? '?'}`, detail: entryLabel ?? '' },
    output: mergeUriOf(edit.uri),
  });
}

/**
 * The watch delivered a new version of an object being merged: the merge's "On the server" input
 * shows it and the merge stands on it (the lenses say the server changed again). True when it moved.
 */
export function followServerDuringMerge(edit: OpenEdit, snapshots: Snapshots): boolean {
  const merge = edit.merge;
  const live = edit.session.live;
  if (!merge?.inputs || !live || live.metadata.uid !== merge.theirs.metadata.uid || live.metadata.resourceVersion === merge.theirs.metadata.resourceVersion) return false;
  merge.theirs = live;
  merge.serverChanges = (merge.serverChanges ?? 0) + 1;
  // Written as the merge's other texts are: a list in conflict on one line (merge-view-texts.ts).
  const texts = { base: edit.session.renderObject(edit.session.base), ours: merge.ours ?? '', theirs: edit.session.renderObject(live) };
  snapshots.set(merge.inputs.input2, merge.ours === undefined ? texts.theirs : conflictingListsOnOneLine(texts, merge.conflicts ?? []).theirs);
  return true;
}

/** Closes the merge editor of `edit` (its merge was written, or let go of) and forgets the merge. */
export async function closeMergeEditor(edit: OpenEdit): Promise<void> {
  const result = mergeUriOf(edit.uri).toString();
  edit.merge = undefined;
  const tabs = mergeTabs(edit);
  // A result left dirty (the edit was saved from its own tab) is saved first, so closing does not ask; with no merge left it is not applied.
  for (const doc of vscode.workspace.textDocuments) if (doc.uri.toString() === result && doc.isDirty) await doc.save().then(undefined, () => false);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => false);
}

/**
 * The merge editor tabs of `edit`. The tab API shows a merge editor's input only to proposed API
 * (tabInputTextMerge), so its tab is known by its title, "Merging: <the result's file name>".
 */
export function mergeTabs(edit: OpenEdit): vscode.Tab[] {
  const label = `Merging: ${editFileName(mergeUriOf(edit.uri))}`;
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs.filter((t) => t.label === label && !(t.input instanceof vscode.TabInputText)));
}
