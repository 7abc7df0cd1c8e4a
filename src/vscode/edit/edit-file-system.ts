import * as vscode from 'vscode';
import type { EditDocuments } from './edit-documents';
import type { EditSaver } from './edit-save';
import { isMergeUri } from './edit-uri';

/**
 * `kubewatch-edit:` as a file system, so that VS Code's own save, dirty state, undo, revert,
 * diff with saved and hot exit work on an object's YAML:
 * - reading an object's file renders the object the buffer is to stand on: the live one when
 *   the document is clean (opening, following the server, reverting), the version the edit
 *   started from while it is dirty (so "Compare with Saved" compares with where the edit began);
 * - writing it is the save (edit-save.ts): it resolves when the cluster took the change, and
 *   throws, keeping the buffer dirty, when not; auto save is off for these documents
 *   (auto-save-notice.ts), and one that happens anyway never writes;
 * - the file's mtime moves only to make a clean document follow the server: a dirty one is
 *   never reloaded under the user;
 * - a `.merge.yaml` file is the scratch result of the merge editor;
 * - the file is read-only while a Secret's values are revealed (secret-values.ts, W12).
 * Nothing else (directories, delete, rename) exists.
 */
export class EditFileSystem implements vscode.FileSystemProvider {
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]>;

  constructor(
    private readonly edits: EditDocuments,
    private readonly saver: EditSaver,
  ) {
    this.onDidChangeFile = edits.onDidChangeFile;
  }

  watch(): vscode.Disposable {
    // Changes are announced for every open edit without being asked (the watch follows them).
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const edit = await this.edits.open(uri);
    if (isMergeUri(uri)) return { type: vscode.FileType.File, ctime: 0, mtime: edit.mtime, size: Buffer.byteLength(edit.merge?.text ?? '') };
    if (edit.size === 0) edit.size = Buffer.byteLength(edit.session.render());
    // Read-only while a Secret's values show, so the buffer never holds them unsaved (W12: VS Code backs up unsaved buffers to disk).
    const permissions = edit.session.revealed ? vscode.FilePermission.Readonly : undefined;
    return { type: vscode.FileType.File, ctime: 0, mtime: edit.mtime, size: edit.size, ...(permissions ? { permissions } : {}) };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const edit = await this.edits.open(uri);
    if (isMergeUri(uri)) return Buffer.from(edit.merge?.text ?? edit.session.render(), 'utf8');
    if (!this.edits.isDirty(edit) && !edit.session.recreated()) edit.session.rebaseOnLive();
    const text = edit.session.render();
    edit.size = Buffer.byteLength(text);
    this.edits.changed(edit);
    return Buffer.from(text, 'utf8');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const edit = this.edits.get(uri) ?? (await this.edits.open(uri));
    const text = Buffer.from(content).toString('utf8');
    if (isMergeUri(uri)) return this.saver.writeMerge(edit, text);
    const reason = edit.saveReason;
    edit.saveReason = undefined;
    // Auto save is off for these documents (auto-save-notice.ts); should a user turn it on for
    // them, it still never writes to a cluster: half an edit is not a change.
    if (reason === vscode.TextDocumentSaveReason.AfterDelay || reason === vscode.TextDocumentSaveReason.FocusOut) {
      throw new vscode.FileSystemError('auto save does not write to the cluster: nothing was sent. Press Ctrl+S (File: Save) to save your edit.');
    }
    await this.saver.write(edit, text);
    // VS Code stats the file after a write: the new mtime makes the saved text the saved state.
    this.edits.touch(edit);
    edit.size = content.byteLength;
    edit.reloadAfterSave = true;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
