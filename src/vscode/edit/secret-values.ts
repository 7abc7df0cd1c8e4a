import * as vscode from 'vscode';
import { encodeSecretValue, revealRefusal, secretKeys, secretValueInput, secretValueProblem, yamlLocations, type SaveOutcome, type SecretValueInput } from '../../edit';
import type { EditDocuments, OpenEdit } from './edit-documents';
import type { EditSaver } from './edit-save';
import { EDIT_COMMANDS } from './edit-commands';

/** What Edit value… did, for a caller that passed the value (tests, other commands). */
export type EditValueResult = { kind: 'saved'; resourceVersion: string } | { kind: 'unchanged' } | { kind: 'cancelled' } | { kind: 'refused'; message: string };

const ADD_REMOVE = 'Edit value… adds a key too (New key…); to remove one, delete its line while values are masked (Hide Secret Values) and save.';
const NEW_KEY = '$(add) New key…';
/** A Secret's key (as the API server validates it). */
const KEY_PATTERN = /^[-._a-zA-Z0-9]+$/;

/** A refused or conflicting write in words (no value in it: the words may be logged). */
function notWritten(out: Exclude<SaveOutcome, { kind: 'saved' }>, key: string, edit: OpenEdit): string {
  if (out.kind === 'refused') return out.refusal.message;
  if (out.kind === 'problems') return `nothing was sent: ${out.problems[0]?.message ?? 'the value is not valid'}`;
  const by = edit.session.serverChange()?.manager;
  return `the server changed data.${key} too${by ? ` (by ${by})` : ''} since the editor showed it: nothing was written. The editor shows the server's value now; accept your text to write it over that.`;
}

/**
 * A Secret's values in an edit (W12: revealed values never reach disk). VS Code backs up every
 * unsaved buffer to the user data dir, whatever its scheme, so revealed values never go into an
 * unsaved buffer:
 * - Reveal is refused for a buffer with unsaved changes, and while values show the document is
 *   read-only (EditFileSystem.stat) and follows the server, so it is never dirty;
 * - a value is changed in an input box of its own (Edit value…, a lens above each key) and
 *   written to the cluster at once, as a save of the edit with that one value changed; a
 *   refusal or conflict is said, and the typed text offered again;
 * - Hide makes the document editable again, masked (keys are added or removed by typing then).
 */
export function registerSecretValues(edits: EditDocuments, saver: EditSaver): vscode.Disposable {
  const editOf = (arg: unknown): OpenEdit | undefined => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const edit = uri && edits.get(uri);
    if (!edit) void vscode.window.showInformationMessage('Open a Secret for editing first (Edit on its row in the Kube Watch view).');
    else if (!edit.session.isSecret) void vscode.window.showInformationMessage('This document does not edit a Secret: nothing is masked.');
    return edit?.session.isSecret ? edit : undefined;
  };
  /** Makes VS Code read the document again: its text, and whether it is read-only. */
  const reread = (edit: OpenEdit) => {
    edits.refreshIfClean(edit);
    edits.changed(edit);
  };

  const reveal = async (arg?: unknown) => {
    const edit = editOf(arg);
    if (!edit || edit.session.revealed) return;
    const refused = () => {
      const why = revealRefusal(edits.isDirty(edit));
      if (why) void vscode.window.showWarningMessage(why);
      return why !== undefined;
    };
    if (refused()) return;
    const answer = await vscode.window.showWarningMessage(
      `Reveal the values of Secret "${edit.ref.name}"?`,
      { modal: true, detail: `They show as text in this editor, which is read-only while they do: Edit value… (above each key) writes a new value to the cluster at once. ${ADD_REMOVE}` },
      'Reveal',
    );
    if (answer !== 'Reveal' || refused()) return;
    edit.session.setRevealed(true);
    reread(edit);
  };

  const hide = async (arg?: unknown) => {
    const edit = editOf(arg);
    if (!edit?.session.revealed) return;
    edit.session.setRevealed(false);
    reread(edit);
  };

  /** Edit value…: `key` and `value` may be passed (then no picker or input box is shown). */
  const editValue = async (arg?: unknown, keyArg?: unknown, valueArg?: unknown): Promise<EditValueResult> => {
    const edit = editOf(arg);
    if (!edit) return { kind: 'cancelled' };
    const session = edit.session;
    if (!session.revealed) {
      void vscode.window.showInformationMessage(`Reveal Secret Values first: a value is changed once it shows. ${ADD_REMOVE}`);
      return { kind: 'cancelled' };
    }
    const keys = secretKeys(session.base);
    let key = typeof keyArg === 'string' ? keyArg : await vscode.window.showQuickPick([...keys, NEW_KEY], { title: `Edit a value of Secret "${edit.ref.name}"`, placeHolder: 'The key whose value to change, or a new key' });
    if (key === NEW_KEY) {
      const taken = (k: string) => (!KEY_PATTERN.test(k) ? 'A key is letters, digits, "-", "_" and "." only.' : keys.includes(k) ? `"${k}" is a key already: pick it to change its value.` : undefined);
      key = await vscode.window.showInputBox({ title: `A new key of Secret "${edit.ref.name}"`, prompt: 'Its value comes next, and is written to the cluster at once.', ignoreFocusOut: true, validateInput: taken });
    }
    if (key === undefined) return { kind: 'cancelled' };
    if (!KEY_PATTERN.test(key)) {
      void vscode.window.showWarningMessage(`"${key}" cannot be a key of a Secret: a key is letters, digits, "-", "_" and "." only.`);
      return { kind: 'cancelled' };
    }
    const shown: SecretValueInput = secretValueInput(session.base, key, session.binaryKeys.includes(key));
    const forms = { text: '', multiline: ' It has several lines: each line break shows as \\n, a backslash as \\\\.', base64: ' Its bytes are not text: it stays base64.' };
    let offered = shown.text;
    let said = `Enter writes it to the cluster at once.${forms[shown.form]}`;
    for (let given = typeof valueArg === 'string' ? valueArg : undefined; ; given = undefined) {
      const typed = given ?? (await vscode.window.showInputBox({ title: `data.${key} of Secret "${edit.ref.name}"`, value: offered, prompt: said, password: false, ignoreFocusOut: true, validateInput: (t) => secretValueProblem(shown.form, t) }));
      if (typed === undefined) return { kind: 'cancelled' };
      const problem = secretValueProblem(shown.form, typed);
      const out: SaveOutcome | undefined = problem ? undefined : await session.saveValue(key, encodeSecretValue(shown.form, typed), new AbortController().signal);
      if (out?.kind === 'saved') {
        if (out.unchanged) return { kind: 'unchanged' };
        saver.noteSaved(edit, out.object);
        reread(edit);
        const rv = out.object.metadata.resourceVersion ?? '?';
        vscode.window.setStatusBarMessage(`$(check) Saved data.${key} of ${session.what}: rv ${rv}`, 8000);
        void vscode.window.showInformationMessage(`Saved data.${key} of ${session.what} (rv ${rv}). ${ADD_REMOVE}`);
        return { kind: 'saved', resourceVersion: rv };
      }
      // The document follows the server (it is clean): the next try stands on what it shows now.
      if (out?.kind === 'conflict' || session.serverChange()) session.rebaseOnLive();
      const message = problem ?? notWritten(out as Exclude<SaveOutcome, { kind: 'saved' }>, key, edit);
      reread(edit);
      void vscode.window.showErrorMessage(`Kube Watch: data.${key} of ${session.what}: ${message}`);
      if (given !== undefined) return { kind: 'refused', message };
      offered = typed;
      said = `Not written: ${message} Your text is kept: Enter tries again.`;
    }
  };

  /** "Edit value…" above each key of `data` while values show. */
  const lensesChanged = new vscode.EventEmitter<void>();
  /** The keys whose lenses show, by document ('' while masked). */
  const shownKeys = new Map<string, string>();
  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensesChanged.event,
    provideCodeLenses(document) {
      const edit = edits.get(document.uri);
      if (!edit?.session.revealed || document.uri.toString() !== edit.uri.toString()) return [];
      const at = yamlLocations(document.getText());
      const dataLine = at.keyOf(['data'])?.line ?? 0;
      const add = new vscode.CodeLens(new vscode.Range(dataLine, 0, dataLine, 0), { title: '$(add) Add a key…', tooltip: 'A new key and value, written to the cluster at once', command: EDIT_COMMANDS.editSecretValue, arguments: [edit.uri, NEW_KEY] });
      return secretKeys(edit.session.base).flatMap((key) => {
        const where = at.keyOf(['data', key]);
        if (!where) return [];
        return [new vscode.CodeLens(new vscode.Range(where.line, 0, where.line, 0), { title: '$(edit) Edit value…', tooltip: `Change data.${key}: written to the cluster at once`, command: EDIT_COMMANDS.editSecretValue, arguments: [edit.uri, key] })];
      }).concat(add);
    },
  };

  const guard =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A) =>
      run(...args).catch((err: unknown) => void vscode.window.showErrorMessage(`Kube Watch: ${err instanceof Error ? err.message : String(err)}`));

  return vscode.Disposable.from(
    vscode.commands.registerCommand(EDIT_COMMANDS.revealSecretValues, guard(reveal)),
    vscode.commands.registerCommand(EDIT_COMMANDS.hideSecretValues, guard(hide)),
    vscode.commands.registerCommand(EDIT_COMMANDS.editSecretValue, guard(editValue)),
    vscode.languages.registerCodeLensProvider({ scheme: 'kubewatch-edit' }, lenses),
    edits.onDidChangeState((edit) => {
      // Announced only when the keys or their visibility change (each announcement delays the lenses: edit-lenses.ts).
      const now = edit.session.revealed ? secretKeys(edit.session.base).join('\n') : '';
      if ((shownKeys.get(edit.uri.toString()) ?? '') === now) return;
      shownKeys.set(edit.uri.toString(), now);
      lensesChanged.fire();
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => shownKeys.delete(doc.uri.toString())),
    lensesChanged,
  );
}
