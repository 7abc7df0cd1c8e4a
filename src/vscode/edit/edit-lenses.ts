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
 * never part of the YAML. They are announced as changed only when their text would change (a
 * state change, or the age of a change on the server moving on in 5 s steps, checked every
 * second while one is visible): VS Code asks for lenses again only after a pause it learns from
 * how long they took, and every announcement restarts that pause.
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
      const lenses = editLenses(stateOf(edit), clock.now());
      shown.set(document.uri.toString(), titlesOf(lenses));
      return lenses.map(
        (l) => new vscode.CodeLens(top, { title: l.title, tooltip: l.tooltip, command: l.action ? COMMAND_OF[l.action] : '', arguments: l.action ? [edit.uri] : undefined }),
      );
    },
  };

  const ticking = () =>
    vscode.window.visibleTextEditors.some((e) => {
      const edit = edits.get(e.document.uri);
      return edit !== undefined && ((edit.session.serverChange() !== undefined && e.document.isDirty) || (edit.saved !== undefined && !edit.saved.confirmed));
    });

  /** Lens titles as last handed to VS Code, or announced as changed since, by document. */
  const shown = new Map<string, string>();
  const titlesOf = (lenses: { title: string }[]) => lenses.map((l) => l.title).join('\n');
  /** Records the titles of visible edit documents that read otherwise than last shown or announced; true when any does. */
  const announceChanges = () => {
    let any = false;
    for (const e of vscode.window.visibleTextEditors) {
      const edit = edits.get(e.document.uri);
      if (!edit || e.document.uri.toString() !== edit.uri.toString()) continue;
      const now = titlesOf(editLenses(stateOf(edit), clock.now()));
      if (shown.get(edit.uri.toString()) === now) continue;
      shown.set(edit.uri.toString(), now);
      any = true;
    }
    return any;
  };

  const refresh = () => {
    timer?.cancel();
    timer = undefined;
    if (disposed) return;
    if (announceChanges()) changed.fire();
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
    vscode.workspace.onDidCloseTextDocument((doc) => shown.delete(doc.uri.toString())),
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
