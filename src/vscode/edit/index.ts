import * as vscode from 'vscode';
import { setFieldManager, systemClock, type Clock } from '../../base';
import type { EditJournal, EditWrite } from '../../edit';
import type { WriteJournal } from '../../actions';
import { editWriteLine } from '../../ui/edit/edit-write-line';
import { restrictedSetting } from '../../ui/trusted-settings';
import { registerAutoSaveNotice } from './auto-save-notice';
import { registerEditCommands } from './edit-commands';
import { EditDiagnostics } from './edit-diagnostics';
import { EditDocuments, type EditSource, type OpenEdit } from './edit-documents';
import { EditFileSystem } from './edit-file-system';
import { registerEditLenses } from './edit-lenses';
import { registerLettingGo } from './edit-letting-go';
import { EditSaver } from './edit-save';
import { registerSecretValues } from './secret-values';
import { SNAPSHOT_SCHEME, Snapshots } from './edit-uri';
import { followServerDuringMerge } from './merge-editor';
import { EDIT_SCHEME, setEditRefResolver, type ObjectRef } from '../object-documents';
import { onDidChangeSettings } from '../settings';

export { EDIT_COMMANDS } from './edit-commands';
export type { EditValueResult } from './secret-values';
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

/**
 * `kubeWatch.edit.fieldManager`, as the server will record it, for every write (edits and
 * actions): it picks whom the cluster names as the author, so in an untrusted workspace only
 * the user's own (global) value counts, as for the kubeconfig path.
 */
export function applyFieldManagerSetting(): string {
  const value = restrictedSetting<unknown>(vscode.workspace.getConfiguration('kubeWatch'), 'edit.fieldManager', '', vscode.workspace.isTrusted);
  return setFieldManager(typeof value === 'string' ? value : undefined);
}

/** What activation hands to tests: the open edits and their diagnostics. */
export interface EditingRegistration extends vscode.Disposable {
  edits(): OpenEdit[];
  diagnostics(uri: vscode.Uri): readonly vscode.Diagnostic[];
  /** The status an editable document shows after its first line now (edit-lens-text.ts). */
  status(uri: vscode.Uri): string | undefined;
}

/**
 * Editing live objects: the `kubewatch-edit:` file system (edit-file-system.ts), the lenses
 * above each document, the Problems panel, the commands; each write goes through the actions'
 * write journal (pending on its row until the watch shows it, one line in the watch log), or
 * without one gets a log line of its own. Disposing unregisters all of it.
 */
export function registerEditing(
  source: EditSource & { userOf?(entryId: string): string | undefined },
  log: { info(line: string): void; warn(line: string): void },
  clock: Clock = systemClock,
  journal?: Pick<WriteJournal, 'begin' | 'dismissFailed'>,
): EditingRegistration {
  const settings = readEditSettings;
  applyFieldManagerSetting();
  // With a journal, it writes each write's line (when the watch shows it); dry runs and the
  // writes of an editing without one get a line of their own.
  const logWrite = (write: EditWrite, context: string) => {
    if (journal && !write.dryRun) return;
    const line = editWriteLine(write, context);
    if (write.result === 'ok') log.info(line);
    else log.warn(line);
  };
  const watchedOf = (ref: ObjectRef) => {
    const entry = source.entry(ref.entryId);
    return entry?.type && { context: entry.context, group: entry.type.group, resource: entry.type.resource, namespace: ref.namespace, name: ref.name };
  };
  const journalFor = (ref: ObjectRef): EditJournal | undefined =>
    journal && {
      begin: (w) => {
        const entry = source.entry(ref.entryId);
        if (w.dryRun || !entry) return undefined;
        const watched = { context: entry.context, group: w.target.type.group, resource: w.target.type.resource, namespace: ref.namespace, name: ref.name };
        return journal.begin({ user: source.userOf?.(ref.entryId), verb: w.verb, watched, summary: w.summary });
      },
    };
  const edits = new EditDocuments(source, clock, settings, (w, ref) => logWrite(w, source.entry(ref.entryId)?.context ?? ''), journalFor);
  const diagnostics = new EditDiagnostics(edits, clock);
  const snapshots = new Snapshots();
  const saver = new EditSaver(edits, diagnostics, snapshots, clock, settings);
  const fileSystem = new EditFileSystem(edits, saver);
  const lenses = registerEditLenses(edits, clock, () => settings().saveMode);
  const disposables = vscode.Disposable.from(
    onDidChangeSettings(() => applyFieldManagerSetting()),
    setEditRefResolver((uri) => edits.refs.refOf(uri)),
    vscode.workspace.registerFileSystemProvider(EDIT_SCHEME, fileSystem, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, snapshots),
    lenses,
    registerEditCommands(edits, saver, diagnostics, snapshots),
    registerSecretValues(edits, saver),
    registerAutoSaveNotice(edits),
    edits.onDidChangeState((edit) => {
      if (followServerDuringMerge(edit, snapshots)) edits.changed(edit);
    }),
    registerLettingGo(edits, diagnostics, (ref) => {
      const watched = watchedOf(ref);
      if (watched) journal?.dismissFailed(watched);
    }),
    diagnostics,
    snapshots,
    edits,
  );
  return {
    edits: () => edits.all(),
    diagnostics: (uri) => diagnostics.get(uri),
    status: (uri) => lenses.statusOf(uri),
    dispose: () => disposables.dispose(),
  };
}
