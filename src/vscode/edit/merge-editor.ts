import * as vscode from 'vscode';
import { conflictingListsOnOneLine } from '../../edit/merge-view-texts';
import type { MergeConflict } from '../../edit/three-way-merge';
import type { KubeObject } from '../../informer';
import type { OpenEdit } from './edit-documents';
import { mergeUriOf, type Snapshots } from './edit-uri';

/**
 * Overlapping changes go to VS Code's merge editor: the left input is the user's edit (their
 * text as typed), the right one the live object (rendered as the editor renders objects), the
 * base the version the edit started from; the result is a scratch document (`….merge.yaml`)
 * that starts as one whole-file conflict, so the merge editor computes the merge itself and
 * leaves the overlapping lines to the user. Completing the merge puts the result into the
 * edit's buffer, standing on the live version it was merged with; nothing is written to the
 * cluster until the user saves the edit again. A whole list the three-way merge found in conflict
 * (both sides reordered it, ...) is written on one line in the three texts, so that the merge
 * editor shows it as a conflict instead of merging its lines into a list with an item twice.
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

/** Opens the merge of `ours` (the buffer's text) onto `theirs` for `edit`; `conflicts` as the three-way merge found them. */
export async function openMergeEditor(edit: OpenEdit, buffer: string, theirs: KubeObject, snapshots: Snapshots, entryLabel: string | undefined, conflicts: readonly MergeConflict[] = []): Promise<void> {
  const session = edit.session;
  const texts = conflictingListsOnOneLine({ base: session.renderObject(session.base), ours: buffer, theirs: session.renderObject(theirs) }, conflicts);
  const { base: baseText, ours: oursText, theirs: theirsText } = texts;
  edit.merge = { text: conflictMarkerText(oursText, baseText, theirsText), theirs };
  const name = edit.ref.name;
  const base = snapshots.add(`${name} (rv ${session.base.metadata.resourceVersion ?? '?'}, where your edit started).yaml`, baseText);
  const input1 = snapshots.add(`${name} (your edit).yaml`, oursText);
  const input2 = snapshots.add(`${name} (on the server, rv ${theirs.metadata.resourceVersion ?? '?'}).yaml`, theirsText);
  await vscode.commands.executeCommand('_open.mergeEditor', {
    base,
    input1: { uri: input1, title: 'Your edit', description: `${session.what}`, detail: 'not saved' },
    input2: { uri: input2, title: 'On the server', description: `rv ${theirs.metadata.resourceVersion ?? '?'}`, detail: entryLabel ?? '' },
    output: mergeUriOf(edit.uri),
  });
}
