import * as vscode from 'vscode';
import type { Clock, TimerHandle } from '../../base';
import { editLenses, editStatus, type EditLensAction, type EditLensState } from '../../ui/edit/edit-lens-text';
import type { EditDocuments, OpenEdit } from './edit-documents';
import { EDIT_COMMANDS } from './edit-commands';

const TICK_MS = 1000;
const RETRY_MS = 250;
/** Context key: the active editor edits an object that changed on the server since the edit began (title-bar actions). */
export const CHANGED_ON_SERVER_CONTEXT = 'kubeWatch.editChangedOnServer';

const COMMAND_OF: Record<EditLensAction, string> = {
  showChanges: EDIT_COMMANDS.showServerChanges,
  rebase: EDIT_COMMANDS.rebase,
  applyServerSide: EDIT_COMMANDS.applyServerSide,
  reveal: EDIT_COMMANDS.revealSecretValues,
  hide: EDIT_COMMANDS.hideSecretValues,
  save: 'workbench.action.files.save',
};

/** Above the merge's result: Complete Merge, and how often the server changed during the merge. */
function mergeLenses(edit: OpenEdit): vscode.CodeLens[] {
  const top = new vscode.Range(0, 0, 0, 0);
  const lenses = [new vscode.CodeLens(top, { title: '$(check) Complete Merge: write it to the cluster', tooltip: 'Puts this result into your edit and saves it', command: EDIT_COMMANDS.completeMerge, arguments: [edit.uri] })];
  const again = edit.merge?.serverChanges ?? 0;
  if (again > 0) {
    const rv = edit.merge?.theirs.metadata.resourceVersion ?? '?';
    lenses.push(new vscode.CodeLens(top, { title: `$(warning) The server changed again during this merge (${again === 1 ? 'once' : `${again} times`}; now rv ${rv}): "On the server" shows it`, command: '' }));
  }
  return lenses;
}

/**
 * What an editable object document shows besides its YAML (edit-lens-text.ts), never part of it:
 * - a status after the first line, as a decoration: drawn at once, and redrawn every second
 *   while it has an age ("changed on the server 12 s ago");
 * - lenses above the YAML with the actions that apply, announced as changed only when their text
 *   changes: VS Code asks for lenses again only after a pause it learns from how long they took,
 *   and every announcement restarts that pause, so a lens that moved every second might never
 *   be drawn on a slow machine;
 * - the context key of the title bar's Show Changes and Rebase actions.
 * Invariant: the tick runs only while a visible document's status has an age; none after dispose.
 */
export function registerEditLenses(edits: EditDocuments, clock: Clock, mode: () => 'update' | 'serverSideApply'): vscode.Disposable & { statusOf(uri: vscode.Uri): string | undefined } {
  const changed = new vscode.EventEmitter<void>();
  const tones = {
    info: vscode.window.createTextEditorDecorationType({ isWholeLine: true, after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), margin: '0 0 0 3em', fontStyle: 'italic' } }),
    warning: vscode.window.createTextEditorDecorationType({ isWholeLine: true, after: { color: new vscode.ThemeColor('editorWarning.foreground'), margin: '0 0 0 3em', fontStyle: 'italic' } }),
    error: vscode.window.createTextEditorDecorationType({ isWholeLine: true, after: { color: new vscode.ThemeColor('editorError.foreground'), margin: '0 0 0 3em', fontStyle: 'italic' } }),
  };
  let timer: TimerHandle | undefined;
  let pending: TimerHandle | undefined;
  let disposed = false;
  /** Lens titles as last handed to VS Code, or announced as changed since, by document. */
  const shown = new Map<string, string>();

  const stateOf = (edit: OpenEdit): EditLensState => ({
    resourceVersion: edit.session.base.metadata.resourceVersion ?? '?',
    dirty: edits.isDirty(edit),
    change: edit.session.serverChange(),
    gone: edit.gone,
    saved: edit.saved,
    secret: edit.session.isSecret ? { revealed: edit.session.revealed, binaryKeys: edit.session.binaryKeys } : undefined,
    mode: mode(),
    merging: edit.merge !== undefined,
    mergeMovedOn: edit.merge ? { times: edit.merge.serverChanges ?? 0, resourceVersion: edit.merge.theirs.metadata.resourceVersion ?? '?' } : undefined,
  });
  const titlesOf = (state: EditLensState) => editLenses(state).map((l) => l.title).join('\n');

  const provider: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(document) {
      const edit = edits.get(document.uri);
      if (!edit) {
        // Asked before the edit's session exists (VS Code may ask as it opens the file): ask again shortly.
        if (!pending) pending = clock.setTimer(() => ((pending = undefined), refresh()), RETRY_MS);
        return [];
      }
      if (document.uri.toString() !== edit.uri.toString()) return edit.merge ? mergeLenses(edit) : [];
      const state = stateOf(edit);
      shown.set(document.uri.toString(), titlesOf(state));
      const top = new vscode.Range(0, 0, 0, 0);
      return editLenses(state).map((l) => new vscode.CodeLens(top, { title: l.title, tooltip: l.tooltip, command: l.action ? COMMAND_OF[l.action] : '', arguments: l.action ? [edit.uri] : undefined }));
    },
  };

  /** Visible edit documents with their edits. */
  const visible = () =>
    vscode.window.visibleTextEditors.flatMap((editor) => {
      const edit = edits.get(editor.document.uri);
      return edit && editor.document.uri.toString() === edit.uri.toString() ? [{ editor, edit }] : [];
    });

  const refresh = () => {
    timer?.cancel();
    timer = undefined;
    if (disposed) return;
    let announce = false;
    let ticking = false;
    for (const { editor, edit } of visible()) {
      const state = stateOf(edit);
      const status = editStatus(state, clock.now());
      const line = new vscode.Range(0, 0, 0, 0);
      for (const [tone, type] of Object.entries(tones)) editor.setDecorations(type, tone === status.tone ? [{ range: line, renderOptions: { after: { contentText: status.text } } }] : []);
      if (state.change && state.dirty) ticking = true;
      const titles = titlesOf(state);
      if (shown.get(edit.uri.toString()) !== titles) {
        shown.set(edit.uri.toString(), titles);
        announce = true;
      }
    }
    for (const edit of edits.all()) {
      const merge = edit.merge ? `merge ${edit.merge.serverChanges ?? 0} ${edit.merge.theirs.metadata.resourceVersion ?? ''}` : '';
      if ((shown.get(`merge:${edit.uri.toString()}`) ?? '') !== merge) {
        shown.set(`merge:${edit.uri.toString()}`, merge);
        announce = true;
      }
    }
    if (announce) changed.fire();
    const active = vscode.window.activeTextEditor;
    const activeEdit = active && edits.get(active.document.uri);
    const changedOnServer = activeEdit !== undefined && active?.document.isDirty === true && activeEdit.session.serverChange() !== undefined;
    void vscode.commands.executeCommand('setContext', CHANGED_ON_SERVER_CONTEXT, changedOnServer);
    if (ticking) timer = clock.setTimer(refresh, TICK_MS);
  };

  const subscriptions = [
    vscode.languages.registerCodeLensProvider({ scheme: 'kubewatch-edit' }, provider),
    edits.onDidChangeState(refresh),
    vscode.window.onDidChangeVisibleTextEditors(refresh),
    vscode.window.onDidChangeActiveTextEditor(refresh),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (edits.get(doc.uri)) refresh();
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (edits.get(e.document.uri)) refresh();
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => shown.delete(doc.uri.toString())),
  ];
  refresh();
  return {
    statusOf(uri) {
      const edit = edits.get(uri);
      return edit && editStatus(stateOf(edit), clock.now()).text;
    },
    dispose() {
      disposed = true;
      timer?.cancel();
      pending?.cancel();
      for (const s of subscriptions) s.dispose();
      for (const t of Object.values(tones)) t.dispose();
      changed.dispose();
    },
  };
}
