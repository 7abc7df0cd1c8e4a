import * as vscode from 'vscode';
import { systemClock, type Clock } from '../../base';
import type { EditWrite } from '../../edit';
import { editWriteLine } from '../../ui/edit/edit-write-line';
import { registerEditCommands } from './edit-commands';
import { EditDiagnostics } from './edit-diagnostics';
import { EditDocuments, type EditSource, type OpenEdit } from './edit-documents';
import { EditFileSystem } from './edit-file-system';
import { registerEditLenses } from './edit-lenses';
import { EditSaver } from './edit-save';
import { SNAPSHOT_SCHEME, Snapshots } from './edit-uri';
import { EDIT_SCHEME, setEditRefResolver } from '../object-documents';

export { EDIT_COMMANDS } from './edit-commands';
export type { EditSource, OpenEdit } from './edit-documents';

/** `kubeWatch.edit.*`. */
export interface EditSettings {
  hideServerFields: boolean;
  saveMode: 'update' | 'serverSideApply';
}

export function readEditSettings(): EditSettings {
  const c = vscode.workspace.getConfiguration('kubeWatch.edit');
  return { hideServerFields: c.get<boolean>('hideServerFields', true) !== false, saveMode: c.get<string>('saveMode', 'update') === 'serverSideApply' ? 'serverSideApply' : 'update' };
}

/** What activation hands to tests: the open edits and their diagnostics. */
export interface EditingRegistration extends vscode.Disposable {
  edits(): OpenEdit[];
  diagnostics(uri: vscode.Uri): readonly vscode.Diagnostic[];
}

/**
 * Editing live objects: the `kubewatch-edit:` file system (edit-file-system.ts), the lenses
 * above each document, the Problems panel, the commands, and one watch-log line per write
 * (`onWrite`, the hook a write journal can take over). Disposing unregisters all of it.
 */
export function registerEditing(
  source: EditSource,
  log: { info(line: string): void; warn(line: string): void },
  clock: Clock = systemClock,
  onWrite?: (write: EditWrite) => void,
): EditingRegistration {
  const settings = readEditSettings;
  const logWrite = (write: EditWrite, context: string) => {
    const line = editWriteLine(write, context);
    if (write.result === 'ok') log.info(line);
    else log.warn(line);
    onWrite?.(write);
  };
  const edits = new EditDocuments(source, clock, settings, (w, ref) => logWrite(w, source.entry(ref.entryId)?.context ?? ''));
  const diagnostics = new EditDiagnostics(edits, clock);
  const snapshots = new Snapshots();
  const saver = new EditSaver(edits, diagnostics, snapshots, clock, settings);
  const fileSystem = new EditFileSystem(edits, saver);
  const disposables = vscode.Disposable.from(
    setEditRefResolver((uri) => edits.refs.refOf(uri)),
    vscode.workspace.registerFileSystemProvider(EDIT_SCHEME, fileSystem, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, snapshots),
    registerEditLenses(edits, clock, () => settings().saveMode),
    registerEditCommands(edits, saver, diagnostics, snapshots),
    diagnostics,
    snapshots,
    edits,
  );
  return {
    edits: () => edits.all(),
    diagnostics: (uri) => diagnostics.get(uri),
    dispose: () => disposables.dispose(),
  };
}
