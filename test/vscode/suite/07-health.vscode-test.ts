import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { INFORMERS, closeAllEditors, describeEntries, entryOf, fixture, registerTeardown, resourceNode, settled, until, type Fixture } from '../support/fixture';

registerTeardown();

describe('the Watch Health panel', () => {
  let fx: Fixture;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
  });

  beforeEach(async () => {
    await settled(fx);
  });

  afterEach(async () => {
    await closeAllEditors();
  });

  it('opens from a resource node, is fed snapshots with a band per watch, and closing it stops every timer and listener while recording goes on', async () => {
    const { api, server } = fx;
    assert.equal(api.health.isPanelOpen(), false);
    assert.equal(api.health.openTimers(), 0);
    const node = resourceNode(api, 'configmaps');
    assert.ok(node, describeEntries(api));
    await vscode.commands.executeCommand('kubeWatch.showHealth', node);
    assert.equal(api.health.isPanelOpen(), true);
    // Watches an earlier suite configured and removed stay on the panel (marked removed) for the window.
    const live = () => api.health.lastSnapshot()?.watches.filter((w) => !w.removed) ?? [];
    await until(() => live().length === INFORMERS, () => `a snapshot with ${INFORMERS} live watches: ${JSON.stringify(api.health.lastSnapshot()?.watches.map((w) => [w.label, w.removed]))}`);
    const first = api.health.lastSnapshot()!;
    for (const w of live()) assert.equal(w.spans.at(-1)?.state, 'watching', `${w.label}: ${w.spans.map((s) => s.state).join(' ')}`);
    assert.equal(api.health.openTimers(), 1, 'the feed');
    assert.ok(api.health.openSubscriptions() > 0);

    // Live: a change on the server shows in a later snapshot.
    server.create('configmaps', { metadata: { name: 'health-probe', namespace: 'default' } });
    const id = entryOf(api, 'configmaps').id;
    await until(() => {
      const s = api.health.lastSnapshot()!;
      return s.serial > first.serial && (s.watches.find((w) => w.id === id)?.totals.adds ?? 0) >= 1;
    }, () => `the add in a snapshot: ${JSON.stringify(api.health.lastSnapshot()?.watches.map((w) => [w.label, w.totals]))}`);

    await closeAllEditors();
    await until(() => !api.health.isPanelOpen(), () => 'the panel to close');
    assert.equal(api.health.openTimers(), 0);
    assert.equal(api.health.openSubscriptions(), 0);
    const version = api.health.recorder.track(id)!.version;
    server.delete('configmaps', 'default', 'health-probe');
    await until(() => api.health.recorder.track(id)!.version > version, () => 'the recorder to go on recording with the panel closed');
  });

  it('Copy as Markdown puts the summary of every watch on the clipboard', async () => {
    await vscode.commands.executeCommand('kubeWatch.copyHealthMarkdown');
    const text = await vscode.env.clipboard.readText();
    assert.match(text, /^# Kube Watch: watch health\n/);
    for (const resource of ['configmaps', 'secrets']) assert.match(text, new RegExp(`\\| kw-test/${resource}`), text);
  });
});
