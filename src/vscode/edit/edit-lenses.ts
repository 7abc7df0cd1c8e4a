import * as vscode from 'vscode';
import type { Clock, TimerHandle } from '../../base';
import { editLenses, type EditLensAction } from '../../ui/edit/edit-lens-text';
import type { EditDocuments, OpenEdit } from './edit-documents';
import { EDIT_COMMANDS } from './edit-commands';

const TICK_MS = 1000;
const RETRY_MS = 250;

const COMMAND_OF: Record<EditLensAction, string> = {
  showChanges: EDIT_COMMANDS.showServerChanges,
  rebase: EDIT_COMMANDS.rebase,
  applyServerSide: EDIT_COMMANDS.applyServerSide,
  reveal: EDIT_COMMANDS.revealSecretValues,
  save: 'workbench.action.files.save',
};

/**
 * The lines above an editable object document (edit-lens-text.ts): CodeLenses, so that they are
 * never part of the YAML. They redraw when an edit's state changes, and every second while a
 * visible document shows a change on the server ("12 s ago") or waits for the watch.
 * Invariant: the tick runs only while such a document is visible; none after dispose.
 */
export function registerEditLenses(edits: EditDocuments, clock: Clock, mode: () => 'update' | 'serverSideApply'): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  let timer: TimerHandle | undefined;
  let pending: TimerHandle | undefined;
  let disposed = false;

  const stateOf = (edit: OpenEdit) => ({
    resourceVersion: edit.session.base.metadata.resourceVersion ?? '?',
    dirty: edits.isDirty(edit),
    change: edit.session.serverChange(),
    gone: edit.gone,
    saved: edit.saved,
    secret: edit.session.isSecret ? { revealed: edit.session.revealed, binaryKeys: edit.session.binaryKeys } : undefined,
    mode: mode(),
    merging: edit.merge !== undefined,
  });

  const provider: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(document) {
      const edit = edits.get(document.uri);
      if (!edit) {
        // Asked before the edit's session exists (VS Code may ask as it opens the file): ask again shortly.
        if (!pending) pending = clock.setTimer(() => ((pending = undefined), refresh()), RETRY_MS);
        return [];
      }
      if (document.uri.toString() !== edit.uri.toString()) return [];
      const top = new vscode.Range(0, 0, 0, 0);
      return editLenses(stateOf(edit), clock.now()).map(
        (l) => new vscode.CodeLens(top, { title: l.title, tooltip: l.tooltip, command: l.action ? COMMAND_OF[l.action] : '', arguments: l.action ? [edit.uri] : undefined }),
      );
    },
  };

  const ticking = () =>
    vscode.window.visibleTextEditors.some((e) => {
      const edit = edits.get(e.document.uri);
      return edit !== undefined && ((edit.session.serverChange() !== undefined && e.document.isDirty) || (edit.saved !== undefined && !edit.saved.confirmed));
    });

  const refresh = () => {
    timer?.cancel();
    timer = undefined;
    if (disposed) return;
    changed.fire();
    if (ticking()) timer = clock.setTimer(refresh, TICK_MS);
  };

  const subscriptions = [
    vscode.languages.registerCodeLensProvider({ scheme: 'kubewatch-edit' }, provider),
    edits.onDidChangeState(refresh),
    vscode.window.onDidChangeVisibleTextEditors(refresh),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (edits.get(doc.uri)) refresh();
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (edits.get(e.document.uri)) refresh();
    }),
  ];
  return {
    dispose() {
      disposed = true;
      timer?.cancel();
      pending?.cancel();
      for (const s of subscriptions) s.dispose();
      changed.dispose();
    },
  };
}
