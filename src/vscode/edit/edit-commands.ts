import * as vscode from 'vscode';
import type { EditDocuments, OpenEdit } from './edit-documents';
import type { EditDiagnostics } from './edit-diagnostics';
import type { EditSaver } from './edit-save';
import { mergeUriOf, type Snapshots } from './edit-uri';
import { hasConflictMarkers, mergeTabs, openMergeEditor } from './merge-editor';
import { EDIT_SCHEME, OBJECT_SCHEME, parseObjectUri, type ObjectRef } from '../object-documents';
import { fieldList } from '../../ui/edit/edit-lens-text';

export const EDIT_COMMANDS = {
  editObject: 'kubeWatch.editObject',
  applyServerSide: 'kubeWatch.applyServerSide',
  showServerChanges: 'kubeWatch.showServerChanges',
  rebase: 'kubeWatch.rebaseEdit',
  revealSecretValues: 'kubeWatch.revealEditedSecretValues',
  hideSecretValues: 'kubeWatch.hideEditedSecretValues',
  editSecretValue: 'kubeWatch.editSecretValue',
  saveAsNewObject: 'kubeWatch.saveAsNewObject',
  completeMerge: 'kubeWatch.completeMerge',
} as const;

/** A command argument as the object it names: a tree node or `{ entryId, namespace, name }`, a `kubewatch:`/`kubewatch-edit:` URI, or the active editor's. */
function refOf(arg: unknown): ObjectRef | undefined {
  if (arg instanceof vscode.Uri) return parseObjectUri(arg);
  if (typeof arg === 'object' && arg !== null) {
    const { entryId, namespace, name, kind } = arg as Partial<ObjectRef> & { kind?: unknown };
    if (kind !== undefined && kind !== 'object') return undefined;
    return typeof entryId === 'string' && typeof namespace === 'string' && typeof name === 'string' ? { entryId, namespace, name } : undefined;
  }
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && (uri.scheme === OBJECT_SCHEME || uri.scheme === EDIT_SCHEME) ? parseObjectUri(uri) : undefined;
}

/**
 * The commands of editing: Edit (from a row, the palette or a live YAML's title bar), Apply
 * Server-Side…, Show Changes on the Server, Rebase My Edit, Save As New Object…, Complete Merge
 * (a Secret's values: secret-values.ts).
 */
export function registerEditCommands(edits: EditDocuments, saver: EditSaver, diagnostics: EditDiagnostics, snapshots: Snapshots): vscode.Disposable {
  const editOf = async (arg: unknown): Promise<{ edit: OpenEdit; doc: vscode.TextDocument } | undefined> => {
    const uri = arg instanceof vscode.Uri && arg.scheme === EDIT_SCHEME ? arg : vscode.window.activeTextEditor?.document.uri;
    const edit = uri && edits.get(uri);
    if (!edit) {
      void vscode.window.showInformationMessage('Open an object for editing first (Edit on its row in the Kube Watch view, or the pencil of its YAML).');
      return undefined;
    }
    return { edit, doc: edits.documentOf(edit) ?? (await vscode.workspace.openTextDocument(edit.uri)) };
  };

  const open = async (arg?: unknown) => {
    const ref = refOf(arg);
    if (!ref) {
      void vscode.window.showInformationMessage('Pick an object in the Kube Watch view to edit it (or open its YAML and use the pencil in the title bar).');
      return;
    }
    const uri = edits.refs.uriOf(ref, edits.source.entry(ref.entryId));
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
    } catch (err) {
      void vscode.window.showWarningMessage(`Kube Watch: cannot edit ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const showChanges = async (arg?: unknown) => {
    const found = await editOf(arg);
    if (!found) return;
    const { edit } = found;
    const s = edit.session;
    const live = s.live;
    if (!live) {
      void vscode.window.showInformationMessage(`${s.what} is not on the server any more.`);
      return;
    }
    const left = snapshots.add(`${edit.ref.name} (rv ${s.base.metadata.resourceVersion ?? '?'}, where your edit started).yaml`, s.renderObject(s.base));
    const right = snapshots.add(`${edit.ref.name} (on the server, rv ${live.metadata.resourceVersion ?? '?'}).yaml`, s.renderObject(live));
    await vscode.commands.executeCommand('vscode.diff', left, right, `${edit.ref.name}: where your edit started ↔ on the server now`, { preview: true });
  };

  const rebase = async (arg?: unknown) => {
    const found = await editOf(arg);
    if (!found) return;
    const { edit, doc } = found;
    if (edit.session.revealed) {
      // Read-only and clean while values show (W12): it follows the server already, and a rebase would type them into the buffer.
      void vscode.window.showInformationMessage('While Secret values are revealed the document follows the server: there is no edit to rebase.');
      return;
    }
    const text = doc.getText();
    const r = edit.session.rebase(text);
    if ('problems' in r) {
      diagnostics.check(doc);
      void vscode.window.showWarningMessage(`Kube Watch: fix the problems first (see the Problems panel): ${r.problems[0].message}`);
      return;
    }
    if ('conflicts' in r) {
      await openMergeEditor(edit, text, r.theirs, snapshots, edits.source.entry(edit.ref.entryId)?.label, r.conflicts);
      edits.changed(edit);
      return;
    }
    const live = edit.session.live ?? edit.session.base;
    const change = new vscode.WorkspaceEdit();
    change.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), edit.session.renderObject(r.merged));
    await vscode.workspace.applyEdit(change);
    edit.session.adopt(live);
    edits.changed(edit);
    vscode.window.setStatusBarMessage(`$(check) Rebased onto rv ${live.metadata.resourceVersion ?? '?'}${r.fields.length > 0 ? ` (the server changed ${fieldList(r.fields, 3)})` : ''}: save to write it`, 8000);
  };

  /** Save As New Object…: after a modal confirmation, creates the object from the buffer (the one way an edit re-creates a deleted object, W03). */
  const saveAsNew = async (arg?: unknown) => {
    const found = await editOf(arg);
    if (!found) return;
    const { edit, doc } = found;
    const s = edit.session;
    const origin = s.target.origin;
    const deleted = s.deletedSince !== undefined ? ' It was deleted on the server.' : s.live ? ' It still exists on the server: the create will be refused.' : '';
    const create = 'Create Object';
    const answer = await vscode.window.showWarningMessage(
      `Create ${s.what} on context "${origin.context}" from your edit?`,
      { modal: true, detail: `This creates a new object (with a new uid) from the text in the editor, on ${origin.server || 'the cluster it was read from'}.${deleted} Access granted by a deleted Role or binding comes back with it.` },
      create,
    );
    if (answer !== create) return;
    const text = doc.getText();
    const out = await s.createAsNew(text, new AbortController().signal);
    if (out.kind === 'problems') {
      diagnostics.check(doc);
      void vscode.window.showWarningMessage(`Kube Watch: nothing was sent: ${out.problems[0].message}`);
      return;
    }
    if (out.kind !== 'saved') {
      void vscode.window.showErrorMessage(`Kube Watch: ${out.kind === 'refused' ? out.refusal.message : 'nothing was created.'}`);
      return;
    }
    edit.gone = undefined;
    edits.changed(edit);
    if (doc.isDirty) {
      edit.skipWrite = text;
      await doc.save();
    }
    void vscode.window.showInformationMessage(`Created ${s.what} from your edit (uid ${out.object.metadata.uid ?? '?'}, rv ${out.object.metadata.resourceVersion ?? '?'}).`);
  };

  const apply = async (arg?: unknown) => {
    const found = await editOf(arg);
    if (found) await saver.applyCommand(found.edit, found.doc);
  };

  /** Complete Merge (the merge editor's title bar, the result's lens): the result into the edit, and the edit saved. */
  const completeMerge = async (arg?: unknown) => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const active = vscode.window.tabGroups.activeTabGroup.activeTab;
    const edit = (uri && edits.get(uri)) || edits.all().find((e) => e.merge && active && mergeTabs(e).some((t) => t.label === active.label));
    if (!edit?.merge) {
      void vscode.window.showInformationMessage('No merge of a live object is open.');
      return;
    }
    const result = vscode.workspace.textDocuments.find((d) => d.uri.toString() === mergeUriOf(edit.uri).toString());
    const text = result?.getText() ?? edit.merge.text;
    if (hasConflictMarkers(text)) {
      void vscode.window.showWarningMessage(`The merge of ${edit.ref.name} still has conflicts: resolve them (accept a side, or edit the result), then Complete Merge.`);
      return;
    }
    if (result?.isDirty) await result.save();
    else await saver.writeMerge(edit, text);
  };

  const guard = (run: (arg?: unknown) => Promise<void>) => (arg?: unknown) =>
    run(arg).catch((err: unknown) => void vscode.window.showErrorMessage(`Kube Watch: ${err instanceof Error ? err.message : String(err)}`));

  return vscode.Disposable.from(
    vscode.commands.registerCommand(EDIT_COMMANDS.editObject, guard(open)),
    vscode.commands.registerCommand(EDIT_COMMANDS.applyServerSide, guard(apply)),
    vscode.commands.registerCommand(EDIT_COMMANDS.showServerChanges, guard(showChanges)),
    vscode.commands.registerCommand(EDIT_COMMANDS.rebase, guard(rebase)),
    vscode.commands.registerCommand(EDIT_COMMANDS.saveAsNewObject, guard(saveAsNew)),
    vscode.commands.registerCommand(EDIT_COMMANDS.completeMerge, guard(completeMerge)),
  );
}
