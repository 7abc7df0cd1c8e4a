import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EDIT_COMMANDS } from '../../../src/vscode/edit';
import { closeAllEditors, describeEntries, entryOf, fixture, registerTeardown, settled, until, type Fixture } from '../support/fixture';

registerTeardown();

/**
 * The first hour of editing (issue 29): auto save, failed writes that go with their edit, and the
 * merge. On the extension's own manager and the shared local API server.
 */
describe('edit: the first hour', () => {
  let fx: Fixture;
  const NAME = 'first-hour';
  const MERGED = 'merge-me';

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
    fx.server.create('configmaps', { metadata: { namespace: 'default', name: NAME }, data: { LEVEL: 'info' } });
    fx.server.create('configmaps', { metadata: { namespace: 'default', name: MERGED }, data: { LEVEL: 'info' } });
    const cms = entryOf(fx.api, 'configmaps');
    await until(() => cms.informer?.get('default', NAME) !== undefined && cms.informer?.get('default', MERGED) !== undefined, () => describeEntries(fx.api));
  });

  after(async function () {
    this.timeout(30_000);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.isDirty && doc.uri.scheme === 'kubewatch-edit') {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
      }
    }
    await closeAllEditors();
    for (const name of [NAME, MERGED]) if (fx.server.get('configmaps', 'default', name)) fx.server.delete('configmaps', 'default', name);
  });

  const replaceAll = async (doc: vscode.TextDocument, from: string, to: string) => {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), doc.getText().replace(from, to));
    assert.ok(await vscode.workspace.applyEdit(edit));
  };
  const open = async (name: string) => {
    const entry = entryOf(fx.api, 'configmaps');
    await vscode.commands.executeCommand(EDIT_COMMANDS.editObject, { kind: 'object', entryId: entry.id, namespace: 'default', name });
    await until(() => vscode.window.activeTextEditor?.document.uri.scheme === 'kubewatch-edit', () => String(vscode.window.activeTextEditor?.document.uri));
    return vscode.window.activeTextEditor!.document;
  };
  /** Writes to the object (PUT, PATCH, POST on its path). */
  const writes = () => fx.server.requests.filter((r) => r.method !== 'GET' && r.path.includes(`/configmaps/${NAME}`)).length;

  it('U01 auto save does not apply to a live object: with files.autoSave afterDelay a workspace file is saved, the edit is not even tried, stays dirty, nothing sent', async () => {
    await vscode.workspace.getConfiguration('files').update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSaveDelay', 300, vscode.ConfigurationTarget.Global);
    const saving: { uri: string; reason: vscode.TextDocumentSaveReason }[] = [];
    const listener = vscode.workspace.onWillSaveTextDocument((e) => saving.push({ uri: e.document.uri.toString(), reason: e.reason }));
    try {
      const doc = await open(NAME);
      assert.equal(doc.languageId, 'kubewatch-yaml');
      assert.equal(vscode.workspace.getConfiguration('files', doc).get('autoSave'), 'off', 'auto save is off for live objects');
      const before = writes();
      await replaceAll(doc, 'LEVEL: info', 'LEVEL: debug');
      assert.equal(doc.isDirty, true);
      // A control: a workspace file edited after the object is auto saved; by then the edit's delay passed too.
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder, 'the tests run in a workspace folder');
      const control = vscode.Uri.joinPath(folder, 'u01-control.txt');
      await vscode.workspace.fs.writeFile(control, Buffer.from('control\n'));
      const controlDoc = await vscode.workspace.openTextDocument(control);
      await vscode.window.showTextDocument(controlDoc, { preview: false });
      const change = new vscode.WorkspaceEdit();
      change.insert(control, new vscode.Position(0, 0), 'typed ');
      assert.ok(await vscode.workspace.applyEdit(change));
      await until(() => !controlDoc.isDirty && saving.some((s) => s.uri === control.toString()), () => `control dirty=${controlDoc.isDirty} saves=${JSON.stringify(saving)}`);
      // Focus moves back and forth too (onFocusChange saves would fire here).
      await vscode.window.showTextDocument(doc);
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(saving.filter((s) => s.uri === doc.uri.toString()), [], 'VS Code never tried to save the live object');
      assert.equal(doc.isDirty, true, 'the edit stays dirty');
      assert.ok(doc.getText().includes('LEVEL: debug'), 'the text is kept');
      assert.equal(writes(), before, 'nothing was sent');
      assert.equal((fx.server.get('configmaps', 'default', NAME)?.data as Record<string, string>).LEVEL, 'info');
      // Save (Ctrl+S) still writes.
      assert.equal(await doc.save(), true);
      assert.equal((fx.server.get('configmaps', 'default', NAME)?.data as Record<string, string>).LEVEL, 'debug');
    } finally {
      listener.dispose();
      await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('U04 a failed save goes with its edit: reverting, or closing the tab, takes its problems (and error count) and its row mark away at once; the toast names the field once', async () => {
    const entry = entryOf(fx.api, 'configmaps');
    const watched = { context: entry.context, group: '', resource: 'configmaps', namespace: 'default', name: NAME };
    const journal = fx.api.actions.journal;
    const mark = () => journal.markOf(watched)?.state;
    const errors = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    const failOnce = async () => {
      const doc = await open(NAME);
      await replaceAll(doc, '\ndata:\n', "\n  labels:\n    'bad key!': x\ndata:\n");
      assert.equal(await doc.save(), false, 'refused');
      await until(() => mark() === 'failed' && errors(doc.uri).length > 0, () => `mark ${mark()}, ${JSON.stringify(errors(doc.uri).map((d) => d.message))}`);
      const record = journal.records().at(-1)!;
      assert.equal(record.outcome, 'The server found a field invalid (metadata.labels): nothing was saved. See the Problems panel; your edit is kept.');
      return doc;
    };
    const reverted = await failOnce();
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(() => !reverted.isDirty, () => 'reverted');
    await until(() => mark() === undefined && errors(reverted.uri).length === 0, () => `after revert: mark ${mark()}, ${JSON.stringify(errors(reverted.uri).map((d) => d.message))}`);
    const closed = await failOnce();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await until(() => mark() === undefined && errors(closed.uri).length === 0, () => `after close: mark ${mark()}, ${JSON.stringify(errors(closed.uri).map((d) => d.message))}`);
  });

  it('U05 one merge per edit: a second server change during the merge updates that merge (no second Merging tab); Complete Merge writes it in one action and closes it', async () => {
    const doc = await open(MERGED);
    const mergeTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith(`Merging: ConfigMap∕${MERGED}.yaml`));
    const serverChange = (level: string) => {
      const cm = fx.server.get('configmaps', 'default', MERGED)!;
      fx.server.update('configmaps', { ...cm, data: { ...(cm.data as object), LEVEL: level } }, { manager: 'kube-controller-manager' });
    };
    const edit = () => fx.api.editing.edits().find((e) => e.uri.toString() === doc.uri.toString());
    const status = () => fx.api.editing.status(doc.uri) ?? '';
    await replaceAll(doc, 'LEVEL: info', 'LEVEL: mine');
    serverChange('theirs-1');
    await until(() => /^Changed on the server/.test(status()), status);
    assert.equal(await doc.save(), false, 'the overlap is not written');
    await until(() => mergeTabs().length === 1, () => `merge tabs: ${JSON.stringify(mergeTabs().map((t) => t.label))}`);

    serverChange('theirs-2');
    const rv2 = fx.server.get('configmaps', 'default', MERGED)!.metadata.resourceVersion;
    await until(() => edit()?.session.live?.metadata.resourceVersion === rv2, () => `live rv ${edit()?.session.live?.metadata.resourceVersion}`);
    await vscode.window.showTextDocument(doc);
    assert.equal(await doc.save(), false, 'still overlapping');
    const merge = edit()?.merge;
    assert.equal(merge?.serverChanges, 1, 'the merge says the server changed again');
    assert.equal(merge?.theirs.metadata.resourceVersion, rv2, 'and merges onto the newest version');
    assert.ok((await vscode.workspace.openTextDocument(merge!.inputs!.input2)).getText().includes('LEVEL: theirs-2'), '"On the server" shows the new version');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(mergeTabs().length, 1, 'one merge tab, reused');

    const result = vscode.workspace.textDocuments.find((d) => d.uri.path.includes('/merge/') && d.uri.path.endsWith(`${MERGED}.yaml`));
    assert.ok(result, 'the merge result is open');
    const resolve = new vscode.WorkspaceEdit();
    resolve.replace(result.uri, new vscode.Range(0, 0, result.lineCount, 0), doc.getText());
    assert.ok(await vscode.workspace.applyEdit(resolve));
    const saves = () => fx.server.requests.filter((r) => r.method === 'PATCH' && r.path.includes(`/configmaps/${MERGED}`) && r.status === 200).length;
    const before = saves();
    await vscode.commands.executeCommand(EDIT_COMMANDS.completeMerge, doc.uri);
    await until(() => (fx.server.get('configmaps', 'default', MERGED)?.data as Record<string, string>).LEVEL === 'mine', () => JSON.stringify(fx.server.get('configmaps', 'default', MERGED)?.data));
    assert.equal(saves() - before, 1, 'one write');
    await until(() => mergeTabs().length === 0 && !doc.isDirty && edit()?.merge === undefined, () => `merge tabs ${mergeTabs().length}, dirty ${doc.isDirty}`);
  });
});
