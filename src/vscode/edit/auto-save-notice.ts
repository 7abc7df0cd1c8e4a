import * as vscode from 'vscode';
import type { EditDocuments } from './edit-documents';

/** The language of editable object documents (package.json: its paths, and auto save off for it). */
export const EDIT_LANGUAGE = 'kubewatch-yaml';

/** How long the status bar says it. */
const NOTICE_MS = 10_000;

/**
 * Auto save does not apply to live objects: package.json turns `files.autoSave` off for the
 * language of their documents (`[kubewatch-yaml]`, a language default, which wins over a user's
 * plain `files.autoSave` and over VS Code for the Web's `afterDelay` default), so VS Code neither
 * saves them after a delay nor reports a failed save; the buffer stays dirty until the user saves.
 * When auto save is on for the user's other files, the status bar says so once per edit, quietly,
 * as that edit first becomes dirty.
 */
export function registerAutoSaveNotice(edits: EditDocuments): vscode.Disposable {
  const told = new WeakSet<object>();
  return vscode.workspace.onDidChangeTextDocument((e) => {
    if (!e.document.isDirty) return;
    const edit = edits.get(e.document.uri);
    if (!edit || told.has(edit) || e.document.uri.toString() !== edit.uri.toString()) return;
    told.add(edit);
    const elsewhere = vscode.workspace.getConfiguration('files').get<string>('autoSave', 'off');
    const here = vscode.workspace.getConfiguration('files', { uri: e.document.uri, languageId: e.document.languageId }).get<string>('autoSave', 'off');
    if (elsewhere === 'off' || here !== 'off') return;
    vscode.window.setStatusBarMessage(`$(info) Auto save does not apply to ${edit.ref.name}, a live object: Save (Ctrl+S) writes it to the cluster`, NOTICE_MS);
  });
}
