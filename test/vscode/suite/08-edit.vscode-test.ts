import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EDIT_COMMANDS } from '../../../src/vscode/edit';
import { closeAllEditors, describeEntries, entryOf, fixture, registerTeardown, settled, until, type Fixture } from '../support/fixture';

registerTeardown();

/**
 * Editing inside VS Code, on the extension's own manager and the shared local API server: the
 * editable document (a file system of its own), its lenses, saving through VS Code's own save,
 * a change on the server announced while dirty, the Problems panel, and a Secret's values.
 */
describe('edit live', () => {
  let fx: Fixture;
  const NAME = 'edit-me';
  const SECRET = 'edit-secret';

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
    fx.server.create('configmaps', { metadata: { namespace: 'default', name: NAME }, data: { LEVEL: 'info' } });
    fx.server.create('secrets', { metadata: { namespace: 'default', name: SECRET }, type: 'Opaque', data: { password: Buffer.from('hunter2').toString('base64') } });
    const cms = entryOf(fx.api, 'configmaps');
    const secrets = entryOf(fx.api, 'secrets');
    await until(() => cms.informer?.get('default', NAME) !== undefined && secrets.informer?.get('default', SECRET) !== undefined, () => describeEntries(fx.api));
  });

  after(async function () {
    this.timeout(30_000);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    await closeAllEditors();
    for (const [resource, name] of [['configmaps', NAME], ['secrets', SECRET]]) if (fx.server.get(resource, 'default', name)) fx.server.delete(resource, 'default', name);
  });

  /** Polls an async predicate (the lenses come through a command) within the fixture's bound. */
  const untilAsync = async (predicate: () => Promise<boolean>, what: () => string) => {
    const deadline = Date.now() + 25_000;
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const lenses = async (uri: vscode.Uri) => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []).map((l) => l.command?.title ?? '');
  const replaceAll = async (doc: vscode.TextDocument, from: string, to: string) => {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), doc.getText().replace(from, to));
    assert.ok(await vscode.workspace.applyEdit(edit));
  };
  const open = async (resource: string, name: string) => {
    const entry = entryOf(fx.api, resource);
    await vscode.commands.executeCommand(EDIT_COMMANDS.editObject, { kind: 'object', entryId: entry.id, namespace: 'default', name });
    await until(() => vscode.window.activeTextEditor?.document.uri.scheme === 'kubewatch-edit', () => String(vscode.window.activeTextEditor?.document.uri));
    return vscode.window.activeTextEditor!.document;
  };

  it('opens an editable document without server fields, with its lens; a save updates the server and the watch confirms it', async () => {
    const doc = await open('configmaps', NAME);
    assert.equal(doc.getText(), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: edit-me\n  namespace: default\ndata:\n  LEVEL: info\n');
    assert.equal(doc.languageId, 'kubewatch-yaml');
    const status = () => fx.api.editing.status(doc.uri) ?? '';
    await until(() => /^Editing at rv \d+ · Save updates the cluster$/.test(status()), status);
    let seen: string[] = [];
    await untilAsync(async () => ((seen = await lenses(doc.uri)), seen.includes('$(cloud-upload) Apply server-side…')), () => JSON.stringify(seen));
    await replaceAll(doc, 'LEVEL: info', 'LEVEL: debug');
    assert.equal(doc.isDirty, true);
    assert.equal(await doc.save(), true);
    assert.equal((fx.server.get('configmaps', 'default', NAME)?.data as Record<string, string>).LEVEL, 'debug');
    const rv = fx.server.get('configmaps', 'default', NAME)!.metadata.resourceVersion;
    await until(() => status() === `Saved: rv ${rv}, confirmed by the watch`, status);
    assert.equal(doc.isDirty, false);
    const record = () => fx.api.actions.journal.records().find((r) => r.watched.name === NAME && r.verb === 'update');
    await until(() => record()?.state === 'confirmed', () => JSON.stringify(record()));
    assert.equal(record()?.resourceVersion, rv, 'the write journal confirmed the save at its resourceVersion');
    assert.equal(record()?.summary, 'data.LEVEL');
  });

  it('a clean document follows the server; a dirty one keeps the text and says what changed, and by whom', async () => {
    const doc = vscode.window.activeTextEditor!.document;
    const cm = fx.server.get('configmaps', 'default', NAME)!;
    fx.server.update('configmaps', { ...cm, data: { ...(cm.data as object), FOLLOWED: 'yes' } }, { manager: 'kube-controller-manager' });
    // 'yes' is a string in the editor's YAML (1.2 core): shown with or without quotes.
    await until(() => /FOLLOWED: '?yes'?\n/.test(doc.getText()), () => doc.getText());
    assert.equal(doc.isDirty, false);
    await replaceAll(doc, 'LEVEL: debug', 'LEVEL: warn');
    const again = fx.server.get('configmaps', 'default', NAME)!;
    fx.server.update('configmaps', { ...again, data: { ...(again.data as object), REVISION: '2' } }, { manager: 'kube-controller-manager' });
    const status = () => fx.api.editing.status(doc.uri) ?? '';
    await until(() => /^Changed on the server \d+ s ago by kube-controller-manager: 1 field \(data\.REVISION\)$/.test(status()), status);
    let seen: string[] = [];
    await untilAsync(async () => ((seen = await lenses(doc.uri)), seen.includes('$(diff) Show changes on the server') && seen.includes('$(repo-pull) Rebase my edit')), () => JSON.stringify(seen));
    assert.ok(doc.getText().includes('LEVEL: warn') && !doc.getText().includes('REVISION'), 'the user’s text is untouched');
    assert.equal(await doc.save(), true);
    assert.deepEqual(fx.server.get('configmaps', 'default', NAME)?.data, { LEVEL: 'warn', FOLLOWED: 'yes', REVISION: '2' });
  });

  it('problems keep a save from being sent: a YAML error and a rename land in the Problems panel; a 422 on its line', async () => {
    const doc = vscode.window.activeTextEditor!.document;
    await until(() => !doc.isDirty && doc.getText().includes('REVISION'), () => doc.getText());
    await replaceAll(doc, 'name: edit-me', 'name: edit-you');
    const diagnostics = () => fx.api.editing.diagnostics(doc.uri);
    await until(() => diagnostics().some((d) => d.message.startsWith('metadata.name is "edit-you"')), () => JSON.stringify(diagnostics().map((d) => d.message)));
    assert.equal(diagnostics()[0].range.start.line, 3);
    const writes = fx.server.requests.filter((r) => r.method !== 'GET').length;
    assert.equal(await doc.save(), false, 'not saved');
    assert.equal(fx.server.requests.filter((r) => r.method !== 'GET').length, writes, 'nothing sent');
    await replaceAll(doc, 'name: edit-you', 'name: edit-me');
    await replaceAll(doc, "\ndata:\n", "\n  labels:\n    'bad key!': x\ndata:\n");
    assert.equal(await doc.save(), false);
    await until(() => diagnostics().some((d) => d.message.startsWith('metadata.labels: Invalid value: "bad key!"')), () => `${JSON.stringify(diagnostics().map((d) => d.message))} in\n${doc.getText()}`);
    const at = diagnostics().find((d) => d.message.startsWith('metadata.labels'))!;
    assert.equal(doc.lineAt(at.range.start.line).text, "    'bad key!': x");
    assert.equal(doc.isDirty, true, 'the edit is kept');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(() => !doc.isDirty, () => 'reverted');
  });

  it('a Secret: masked until revealed, then read-only with Edit value… above each key; a value changed there is encoded back and written at once; a key added the same way', async () => {
    const doc = await open('secrets', SECRET);
    assert.match(doc.getText(), /password: ••••••/);
    // The modal confirmation cannot be clicked here: reveal through the session as the command would.
    const edit = fx.api.editing.edits().find((e) => e.ref.name === SECRET)!;
    edit.session.setRevealed(true);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(() => doc.getText().includes('password: hunter2'), () => doc.getText());
    await untilAsync(async () => (await lenses(doc.uri)).includes('$(edit) Edit value…'), () => 'the Edit value… lens');
    const saved = await vscode.commands.executeCommand<{ kind: string }>(EDIT_COMMANDS.editSecretValue, doc.uri, 'password', 'correct horse');
    assert.equal(saved?.kind, 'saved');
    assert.equal((fx.server.get('secrets', 'default', SECRET)?.data as Record<string, string>).password, Buffer.from('correct horse').toString('base64'));
    await until(() => doc.getText().includes('password: correct horse'), () => doc.getText());
    assert.equal((await vscode.commands.executeCommand<{ kind: string }>(EDIT_COMMANDS.editSecretValue, doc.uri, 'token', 'added'))?.kind, 'saved');
    assert.deepEqual(fx.server.get('secrets', 'default', SECRET)?.data, { password: Buffer.from('correct horse').toString('base64'), token: Buffer.from('added').toString('base64') });
    assert.equal(doc.isDirty, false);
  });
});
