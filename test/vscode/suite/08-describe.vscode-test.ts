import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DESCRIBE_COMMAND, DESCRIBE_SCHEME } from '../../../src/vscode/describe-documents';
import { closeAllEditors, describeEntries, entryOf, fixture, registerTeardown, settled, until, type Fixture } from '../support/fixture';

registerTeardown();

/**
 * Describe inside VS Code, on the extension's own manager and the shared local API server: the
 * command opens a live description, the description follows its Events, a Secret shows sizes
 * and never values, and closing the editor stops every watch the description started.
 */
describe('describe', () => {
  let fx: Fixture;
  const NAME = 'describe-secret';
  const VALUE = 'do-not-show-me-0123';

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
  });

  after(async function () {
    this.timeout(30_000);
    await closeAllEditors();
    if (fx.server.get('secrets', 'default', NAME)) fx.server.delete('secrets', 'default', NAME);
  });

  const describeDocument = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === DESCRIBE_SCHEME && d.uri.path.endsWith(`Secret\u2215${NAME}`));

  it("opens a Secret's live description (sizes, never values), follows its events, and stops its watches when closed", async () => {
    const secret = fx.server.create('secrets', { metadata: { namespace: 'default', name: NAME }, type: 'Opaque', data: { password: Buffer.from(VALUE).toString('base64') } });
    const entry = entryOf(fx.api, 'secrets');
    await until(() => entry.informer?.get('default', NAME) !== undefined, () => describeEntries(fx.api));
    const before = fx.api.manager.adHocWatchCount;

    await vscode.commands.executeCommand(DESCRIBE_COMMAND, { kind: 'object', entryId: entry.id, namespace: 'default', name: NAME });
    await until(() => /^password: +19 bytes$/m.test(describeDocument()?.getText() ?? ''), () => describeDocument()?.getText() ?? 'no description document');
    const text = describeDocument()!.getText();
    assert.match(text, /^Name: +describe-secret\nNamespace: +default\n/);
    assert.match(text, /^Type: +Opaque$/m);
    assert.ok(!text.includes(VALUE) && !text.includes(Buffer.from(VALUE).toString('base64')), 'no Secret value in the description');
    assert.equal(fx.api.describe.openCount(), 1);
    assert.equal(fx.api.manager.adHocWatchCount, before + 1, 'the events watch (the object comes from the secrets watch)');

    fx.server.create('events', {
      metadata: { namespace: 'default', generateName: `${NAME}.` },
      involvedObject: { kind: 'Secret', apiVersion: 'v1', namespace: 'default', name: NAME, uid: secret.metadata.uid },
      reason: 'Rotated',
      message: 'the password was rotated (extension-host test)',
      type: 'Normal',
      count: 1,
      source: { component: 'rotator' },
      firstTimestamp: new Date().toISOString(),
      lastTimestamp: new Date().toISOString(),
    });
    await until(() => /^ {2}Normal +Rotated +\d+s +rotator +the password was rotated \(extension-host test\)$/m.test(describeDocument()?.getText() ?? ''), () => describeDocument()?.getText() ?? '');

    await closeAllEditors();
    await until(() => fx.api.describe.openCount() === 0 && fx.api.manager.adHocWatchCount === before, () => `open descriptions ${fx.api.describe.openCount()}, ad-hoc watches ${fx.api.manager.adHocWatchCount}`);
  });
});
