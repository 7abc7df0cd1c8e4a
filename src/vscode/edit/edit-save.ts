import * as vscode from 'vscode';
import type { Clock } from '../../base';
import { fieldManager } from '../../base';
import { applyEdit, conflictLines, pathText, previewApply, type ApplyPreviewOptions, type BufferProblem, type MergeConflict } from '../../edit';
import { keptLines, reAddedLines } from '../../ui/edit/apply-notes';
import type { KubeObject } from '../../informer';
import { fieldList } from '../../ui/edit/edit-lens-text';
import type { EditDiagnostics } from './edit-diagnostics';
import type { EditDocuments, OpenEdit } from './edit-documents';
import type { Snapshots } from './edit-uri';
import { closeMergeEditor, hasConflictMarkers, openMergeEditor } from './merge-editor';

/** How long a save may wait for the watch to deliver it before the lens says the view may be behind. */
const CONFIRM_WITHIN_MS = 5000;

/** A failed save: VS Code shows "Failed to save 'name.yaml': <message>" with Retry, and keeps the buffer dirty. */
function notSaved(message: string): vscode.FileSystemError {
  return new vscode.FileSystemError(message);
}

function firstProblems(problems: readonly BufferProblem[]): string {
  const lines = problems.slice(0, 2).map((p) => `line ${p.range.line + 1}: ${p.message}`);
  return `${lines.join('; ')}${problems.length > 2 ? `; and ${problems.length - 2} more` : ''}`;
}

function conflictSummary(conflicts: readonly MergeConflict[]): string {
  const fields = conflicts.slice(0, 3).map((c) => pathText(c.path));
  return fields.join(', ') + (conflicts.length > 3 ? `, and ${conflicts.length - 3} more` : '');
}

/**
 * Saving an edit (what the file system's writeFile runs) and applying it server-side: every
 * outcome in words, the problems on their lines, a conflict in the merge editor. A save that
 * does not write throws, so VS Code keeps the buffer dirty and offers Retry; nothing is retried
 * unasked.
 */
export class EditSaver {
  constructor(
    private readonly edits: EditDocuments,
    private readonly diagnostics: EditDiagnostics,
    private readonly snapshots: Snapshots,
    private readonly clock: Clock,
    private readonly settings: () => { saveMode: 'update' | 'serverSideApply' },
  ) {}

  /** Saves `text` as the edit of `edit` (the document's save): resolves when written, throws otherwise. */
  async write(edit: OpenEdit, text: string): Promise<void> {
    if (edit.skipWrite === text) {
      edit.skipWrite = undefined;
      return;
    }
    this.diagnostics.setServerProblems(edit.uri, [], vscode.DiagnosticSeverity.Error, '');
    if (this.settings().saveMode === 'serverSideApply') {
      const applied = await this.applyFlow(edit, text);
      if (!applied.ok) throw notSaved(applied.message);
      return;
    }
    const out = await edit.session.save(text, new AbortController().signal);
    switch (out.kind) {
      case 'problems':
        this.diagnostics.check(this.edits.documentOf(edit) ?? ({ uri: edit.uri, getText: () => text } as vscode.TextDocument));
        throw notSaved(`nothing was sent: ${firstProblems(out.problems)}. See the Problems panel.`);
      case 'refused':
        this.diagnostics.setServerProblems(edit.uri, out.refusal.problems, vscode.DiagnosticSeverity.Error, `${out.refusal.code || 'unreachable'}`);
        throw notSaved(out.refusal.message);
      case 'conflict': {
        await openMergeEditor(edit, text, out.theirs, this.snapshots, this.edits.source.entry(edit.ref.entryId)?.label, out.conflicts);
        this.edits.changed(edit);
        const change = edit.session.serverChange();
        const by = change?.manager ? ` by ${change.manager}` : '';
        throw notSaved(`your edit and the server's change${by} overlap (${conflictSummary(out.conflicts)}): nothing was written. Resolve them in the merge editor, then Complete Merge: that writes it.`);
      }
      case 'saved':
        if (edit.merge) void closeMergeEditor(edit);
        if (!out.unchanged) this.noteSaved(edit, out.object);
        if (out.rebased && edit.saved) {
          const whose = out.rebased.manager ? `${out.rebased.manager}'s` : "the server's";
          edit.saved.rebased = `rebased onto ${whose} change to ${fieldList(out.rebased.fields, 3)}`;
          void vscode.window.showInformationMessage(`Saved on top of ${whose} change to ${fieldList(out.rebased.fields, 4)}: both are on the cluster (rv ${out.object.metadata.resourceVersion}).`);
        }
        this.edits.changed(edit);
    }
  }

  /**
   * The merge editor's result was saved (Complete Merge): complete (no markers left), it goes
   * into the edit's buffer, on top of the version it was merged with, and the edit is saved: that
   * one action writes the merge. A result with markers left is kept as it is.
   */
  async writeMerge(edit: OpenEdit, text: string): Promise<void> {
    // No merge open (a result restored after a reload, or saved as its merge editor closes): nothing to put anywhere.
    if (!edit.merge) return;
    edit.merge.text = text;
    if (hasConflictMarkers(text)) return;
    const theirs = edit.merge.theirs;
    const doc = this.edits.documentOf(edit) ?? (await vscode.workspace.openTextDocument(edit.uri));
    const all = new vscode.Range(0, 0, doc.lineCount, 0);
    const change = new vscode.WorkspaceEdit();
    change.replace(edit.uri, all, text);
    await vscode.workspace.applyEdit(change);
    edit.session.adopt(theirs);
    this.edits.changed(edit);
    // Saved once this write returns (not inside it): the save may reopen this merge on a new conflict.
    this.clock.setTimer(() => void (this.edits.documentOf(edit) ?? doc).save().then(undefined, () => false), 0);
  }

  /** Applies the document's text server-side (the title bar's Apply Server-Side…); the document counts as saved after. */
  async applyCommand(edit: OpenEdit, doc: vscode.TextDocument): Promise<void> {
    const text = doc.getText();
    const applied = await this.applyFlow(edit, text);
    if (!applied.ok) {
      if (!applied.cancelled) void vscode.window.showErrorMessage(`Kube Watch: ${applied.message}`);
      return;
    }
    if (doc.isDirty) {
      edit.skipWrite = text;
      await doc.save();
    } else this.edits.refreshIfClean(edit);
  }

  /**
   * Dry run, re-added fields asked about (W07: left out unless the user says so), conflicts
   * explained and forced only as previewed, confirmation, then the previewed plan applied as it
   * was previewed (W06).
   */
  private async applyFlow(edit: OpenEdit, text: string): Promise<{ ok: true } | { ok: false; message: string; cancelled?: boolean }> {
    const session = edit.session;
    const signal = new AbortController().signal;
    const manager = fieldManager();
    let options: ApplyPreviewOptions = {};
    let preview = await previewApply(session, text, signal, options);
    if ((preview.kind === 'preview' || preview.kind === 'conflicts') && preview.reAdded.length > 0) {
      const reAdd = 'Re-add Them';
      const without = 'Apply Without Them';
      const picked = await vscode.window.showWarningMessage(
        `Your edit of ${session.what} changes ${preview.reAdded.length === 1 ? 'a field' : 'fields'} removed on the server since you opened it`,
        { modal: true, detail: `${reAddedLines(preview.reAdded, preview.removedAt).join('\n')}\n\n${without} applies the rest of your edit; they stay removed.` },
        without,
        reAdd,
      );
      if (picked === undefined) return { ok: false, cancelled: true, message: 'the server-side apply was cancelled: nothing was applied. Your edit is kept.' };
      if (picked === reAdd) {
        options = { reAdd: true };
        preview = await previewApply(session, text, signal, options);
      }
    }
    let force = false;
    if (preview.kind === 'conflicts') {
      this.diagnostics.setServerProblems(edit.uri, preview.problems, vscode.DiagnosticSeverity.Warning, 'field manager conflict');
      const managers = [...new Set(preview.conflicts.map((c) => c.manager))].join(', ');
      const forceIt = 'Preview Forced Apply';
      const picked = await vscode.window.showWarningMessage(
        `Server-side apply of ${session.what} conflicts with ${managers}`,
        { modal: true, detail: `${conflictLines(preview.conflicts, manager).join('\n')}\n\nNothing was applied. Force only if ${manager} should own these fields from now on.` },
        forceIt,
      );
      if (picked !== forceIt) return { ok: false, cancelled: true, message: `the server-side apply conflicts with ${managers}: nothing was applied. Your edit is kept.` };
      force = true;
      preview = await previewApply(session, text, signal, { ...options, force: preview.conflicts });
      if (preview.kind === 'conflicts') {
        this.diagnostics.setServerProblems(edit.uri, preview.problems, vscode.DiagnosticSeverity.Warning, 'field manager conflict');
        return { ok: false, message: `a conflict you did not confirm appeared: ${conflictLines(preview.unconfirmed, manager).join(' ')} Nothing was applied; apply again to see it.` };
      }
    }
    if (preview.kind === 'problems') {
      this.diagnostics.check(this.edits.documentOf(edit) ?? ({ uri: edit.uri, getText: () => text } as vscode.TextDocument));
      return { ok: false, message: `nothing was sent: ${firstProblems(preview.problems)}. See the Problems panel.` };
    }
    if (preview.kind === 'refused') {
      this.diagnostics.setServerProblems(edit.uri, preview.refusal.problems, vscode.DiagnosticSeverity.Error, `${preview.refusal.code || 'unreachable'}`);
      return { ok: false, message: preview.refusal.message };
    }
    const live = preview.live;
    const left = this.snapshots.add(`${edit.ref.name} (live, rv ${live.metadata.resourceVersion ?? '?'}).yaml`, session.renderObject(live));
    const right = this.snapshots.add(`${edit.ref.name} (after server-side apply, dry run).yaml`, session.renderObject(preview.result));
    await vscode.commands.executeCommand('vscode.diff', left, right, `${edit.ref.name}: live ↔ after ${force ? 'forced ' : ''}server-side apply (dry run)`, { preview: true, preserveFocus: true });
    const what = preview.changed.length === 0 ? 'The dry run changes nothing on the server.' : `The dry run changes ${preview.changed.length === 1 ? '1 field' : `${preview.changed.length} fields`}: ${fieldList(preview.changed)}.`;
    const kept = keptLines(preview.kept, manager).join(' ');
    const go = force ? 'Force Apply' : 'Apply';
    const choice = await vscode.window.showInformationMessage(`${force ? 'Force-apply' : 'Apply'} ${session.what} server-side as ${manager}? ${what}${kept ? ` ${kept}` : ''}`, go, 'Cancel');
    if (choice !== go) return { ok: false, cancelled: true, message: 'the server-side apply was cancelled: nothing was applied. Your edit is kept.' };
    const out = await applyEdit(session, preview.plan, text, signal);
    if (out.kind === 'applied') {
      this.diagnostics.setServerProblems(edit.uri, [], vscode.DiagnosticSeverity.Error, '');
      this.noteSaved(edit, out.object);
      this.edits.changed(edit);
      void vscode.window.showInformationMessage(`Applied ${session.what} server-side (field manager ${manager}${force ? ', forced' : ''}): rv ${out.object.metadata.resourceVersion}.`);
      return { ok: true };
    }
    if (out.kind === 'moved') {
      const added = out.conflicts.length > 0 ? ` A conflict you did not confirm: ${conflictLines(out.conflicts, manager).join(' ')}` : '';
      return { ok: false, message: `${out.message}${added}` };
    }
    if (out.kind === 'conflicts') {
      this.diagnostics.setServerProblems(edit.uri, out.problems, vscode.DiagnosticSeverity.Warning, 'field manager conflict');
      return { ok: false, message: `the fields changed hands since the preview: ${conflictLines(out.conflicts, manager).join(' ')} Nothing was applied.` };
    }
    this.diagnostics.setServerProblems(edit.uri, out.refusal.problems, vscode.DiagnosticSeverity.Error, `${out.refusal.code || 'unreachable'}`);
    return { ok: false, message: out.refusal.message };
  }

  /** A write landed at `object`'s resourceVersion: the lens waits for the watch to deliver it. */
  noteSaved(edit: OpenEdit, object: KubeObject): void {
    const rv = object.metadata.resourceVersion ?? '';
    const seen = edit.watchRv;
    // The watch may have delivered it before the write's answer came back.
    const confirmed = seen !== undefined && /^\d+$/.test(seen) && /^\d+$/.test(rv) && Number(seen) >= Number(rv);
    edit.saved = { resourceVersion: rv, confirmed };
    this.clock.setTimer(() => {
      if (edit.saved?.resourceVersion === rv && !edit.saved.confirmed) {
        edit.saved.late = true;
        this.edits.changed(edit);
      }
    }, CONFIRM_WITHIN_MS);
  }
}
