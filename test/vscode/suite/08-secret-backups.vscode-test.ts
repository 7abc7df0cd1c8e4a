import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { REVEAL_NEEDS_SAVED_BUFFER } from '../../../src/edit';
import { EDIT_COMMANDS, type EditValueResult } from '../../../src/vscode/edit';
import { closeAllEditors, describeEntries, entryOf, fixture, registerTeardown, settled, until, type Fixture } from '../support/fixture';

registerTeardown();

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(needle)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/**
 * W12: revealed Secret values never reach disk. VS Code backs up every dirty document a second
 * after a change (hot exit), in the user data dir, whatever its scheme; so a revealed document is
 * read-only (never dirty) and a value is changed through Edit value…, written at once. A control
 * document in the same test shows that the backups ran.
 */
describe('edit: revealed Secret values and VS Code backups', () => {
  let fx: Fixture;
  const SECRET = 'w12-secret';
  const VALUE = 'w12-value-8d2f61';
  const CANARY = 'w12-control-5c0e93';
  const NEW_VALUE = 'w12-new-value-3a7c40';
  /**
   * Runs `fn` with VS Code's warnings answered (the modal confirmation with `answer`), through the
   * API object the extension shares with its tests (a test cannot click a modal dialog); returns
   * the warnings shown, `modal:` before a modal one's.
   */
  const answeringWarnings = async (answer: string, fn: () => Thenable<unknown>): Promise<string[]> => {
    const window = vscode.window as { showWarningMessage: unknown };
    const original = window.showWarningMessage;
    const shown: string[] = [];
    window.showWarningMessage = (message: string, options?: { modal?: boolean }) => {
      shown.push(`${options?.modal ? 'modal: ' : ''}${message}`);
      return Promise.resolve(options?.modal ? answer : undefined);
    };
    try {
      await fn();
    } finally {
      window.showWarningMessage = original;
    }
    return shown;
  };
  const openSecret = async () => {
    const entry = entryOf(fx.api, 'secrets');
    await vscode.commands.executeCommand(EDIT_COMMANDS.editObject, { kind: 'object', entryId: entry.id, namespace: 'default', name: SECRET });
    await until(() => vscode.window.activeTextEditor?.document.uri.scheme === 'kubewatch-edit', () => String(vscode.window.activeTextEditor?.document.uri));
    return vscode.window.activeTextEditor!.document;
  };

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    fx.server.create('secrets', { metadata: { namespace: 'default', name: SECRET }, type: 'Opaque', data: { password: Buffer.from(VALUE).toString('base64') } });
    await until(() => entryOf(fx.api, 'secrets').informer?.get('default', SECRET) !== undefined, () => describeEntries(fx.api));
  });

  after(async function () {
    this.timeout(30_000);
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    }
    await closeAllEditors();
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    if (fx.server.get('secrets', 'default', SECRET)) fx.server.delete('secrets', 'default', SECRET);
  });

  it('W12 Reveal is refused for a buffer with unsaved changes, in words, and nothing is revealed', async function () {
    this.timeout(60_000);
    const doc = await openSecret();
    const edit = fx.api.editing.edits().find((e) => e.ref.name === SECRET)!;
    const typed = new vscode.WorkspaceEdit();
    typed.insert(doc.uri, new vscode.Position(doc.lineCount, 0), 'immutable: false\n');
    assert.ok(await vscode.workspace.applyEdit(typed));
    assert.equal(doc.isDirty, true);
    const shown = await answeringWarnings('Reveal', () => vscode.commands.executeCommand(EDIT_COMMANDS.revealSecretValues, doc.uri));
    assert.deepEqual(shown, [REVEAL_NEEDS_SAVED_BUFFER], 'refused in words, before any confirmation');
    assert.equal(edit.session.revealed, false);
    assert.ok(!doc.getText().includes(VALUE));
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(() => !doc.isDirty, () => 'reverted');
  });

  it('W12 a revealed Secret is read-only; a value changed through Edit value… is written at once; with a control document left dirty and backed up by VS Code, no file in the user data dir holds the old or the new value', async function () {
    this.timeout(120_000);
    const userData = process.env.VSCODE_TEST_USER_DATA_DIR;
    assert.ok(userData, 'run.ts names the user data dir');
    const doc = await openSecret();
    const edit = fx.api.editing.edits().find((e) => e.ref.name === SECRET)!;
    // Confirmed, the document is read again: its text and its permissions.
    const asked = await answeringWarnings('Reveal', () => vscode.commands.executeCommand(EDIT_COMMANDS.revealSecretValues, doc.uri));
    assert.deepEqual(asked, [`modal: Reveal the values of Secret "${SECRET}"?`]);
    await until(() => doc.getText().includes(`password: ${VALUE}`), () => doc.getText());
    assert.equal(edit.session.revealed, true);
    assert.equal(doc.isDirty, false);
    // Read-only (the stat's Readonly permission, read again with the text): the editor takes no
    // typing, and even an edit through the API leaves the document clean (VS Code never marks a
    // read-only file's document dirty), so VS Code never backs it up.
    const typed = new vscode.WorkspaceEdit();
    typed.insert(doc.uri, new vscode.Position(doc.lineCount, 0), 'stringData:\n  note: typed\n');
    await vscode.workspace.applyEdit(typed).then(undefined, () => false);
    assert.equal(doc.isDirty, false, 'a revealed document never becomes dirty');

    const result = await vscode.commands.executeCommand<EditValueResult>(EDIT_COMMANDS.editSecretValue, doc.uri, 'password', NEW_VALUE);
    assert.equal(result?.kind, 'saved', JSON.stringify(result));
    assert.equal((fx.server.get('secrets', 'default', SECRET)?.data as Record<string, string>).password, Buffer.from(NEW_VALUE).toString('base64'));
    await until(() => doc.getText().includes(`password: ${NEW_VALUE}`), () => doc.getText());
    assert.equal(doc.isDirty, false);

    const folder = vscode.workspace.workspaceFolders![0].uri;
    const control = vscode.Uri.joinPath(folder, 'w12-control.txt');
    await vscode.workspace.fs.writeFile(control, Buffer.from('control\n'));
    const controlDoc = await vscode.workspace.openTextDocument(control);
    const change = new vscode.WorkspaceEdit();
    change.insert(control, new vscode.Position(0, 0), `${CANARY}\n`);
    assert.ok(await vscode.workspace.applyEdit(change));
    assert.equal(controlDoc.isDirty, true);

    await until(() => filesContaining(userData, CANARY).length > 0, () => `no backup of the control document under ${userData} yet`, 60_000);
    assert.deepEqual(filesContaining(userData, VALUE), [], 'the old value is in no file of the user data dir');
    assert.deepEqual(filesContaining(userData, NEW_VALUE), [], 'the new value is in no file of the user data dir');

    await vscode.commands.executeCommand(EDIT_COMMANDS.hideSecretValues, doc.uri);
    await until(() => doc.getText().includes('password: ••••••'), () => doc.getText());
    const masked = new vscode.WorkspaceEdit();
    masked.insert(doc.uri, new vscode.Position(doc.lineCount, 0), 'immutable: false\n');
    assert.ok(await vscode.workspace.applyEdit(masked), 'the masked document is editable again');
    assert.equal(doc.isDirty, true);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(() => !doc.isDirty, () => 'reverted');
  });
});
