import * as vscode from 'vscode';
import type { ObjectRef } from '../object-documents';
import type { EditDiagnostics } from './edit-diagnostics';
import type { EditDocuments } from './edit-documents';

/**
 * What a failed save left behind goes with the edit: when the edit is reverted (its document clean
 * again) or its last tab closes, the server's problems leave the Problems panel (and VS Code's
 * error count in the status bar) and the failed write's mark leaves the object's row at once.
 * Waiting for VS Code to close the document is not enough: it keeps a closed tab's document for
 * minutes.
 */
export function registerLettingGo(edits: EditDocuments, diagnostics: EditDiagnostics, dismissFailed: (ref: ObjectRef) => void): vscode.Disposable {
  const editUriOf = (input: unknown): vscode.Uri | undefined => {
    const uri = input instanceof vscode.TabInputText ? input.uri : undefined;
    const edit = uri && edits.get(uri);
    return edit && uri.toString() === edit.uri.toString() ? uri : undefined;
  };
  const stillShown = (uri: vscode.Uri) => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => editUriOf(t.input)?.toString() === uri.toString()));
  return vscode.Disposable.from(
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      for (const tab of e.closed) {
        const uri = editUriOf(tab.input);
        const edit = uri && edits.get(uri);
        if (!uri || !edit || stillShown(uri)) continue;
        diagnostics.forget(uri);
        dismissFailed(edit.ref);
      }
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const edit = edits.get(e.document.uri);
      if (!edit || e.document.isDirty || e.document.uri.toString() !== edit.uri.toString()) return;
      diagnostics.setServerProblems(edit.uri, [], vscode.DiagnosticSeverity.Error, '');
      dismissFailed(edit.ref);
    }),
  );
}
