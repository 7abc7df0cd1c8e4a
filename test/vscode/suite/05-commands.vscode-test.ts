import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { load } from 'js-yaml';
import { SECRET_MASK } from '../../../src/ui/object-yaml';
import type { ObjectNode, TreeNode } from '../../../src/ui/tree/tree-node';
import {
  INFORMERS,
  closeAllEditors,
  describeEntries,
  entryOf,
  fixture,
  logSince,
  nodeAt,
  recordStatusTexts,
  registerTeardown,
  resourceNode,
  settled,
  statsOf,
  treeText,
  until,
  type Fixture,
} from '../support/fixture';

registerTeardown();

describe('commands', () => {
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

  const objectAt = (...labels: string[]): ObjectNode => {
    const node = nodeAt(fx.api, ...labels);
    assert.ok(node?.kind === 'object', `${labels.join(' > ')} in the tree:\n${treeText(fx.api).join('\n')}`);
    return node;
  };

  /** The open `kubewatch:` document of `namespace/name`, if any. */
  const objectDocument = (namespace: string, name: string): vscode.TextDocument | undefined =>
    vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'kubewatch' && d.uri.path.includes(`/${namespace}/`) && d.uri.path.endsWith(`\u2215${name}.yaml`));

  /** The server's object as the document shows it: with apiVersion and kind, without managedFields. */
  const shown = (obj: { metadata: Record<string, unknown> }, apiVersion: string, kind: string) => {
    const { managedFields: _drop, ...metadata } = obj.metadata;
    return { ...obj, apiVersion, kind, metadata };
  };

  it('kubeWatch.restartAll restarts every informer, and exactly one watch per informer is open afterwards', async () => {
    const { api, server } = fx;
    const before = api.manager.entries().map((e) => ({ id: e.id, lists: e.stats.lists, informer: e.informer }));
    const logFrom = api.log.recentLines().length;
    const texts = await recordStatusTexts(
      api,
      () => vscode.commands.executeCommand('kubeWatch.restartAll'),
      () => api.manager.entries().every((e) => e.state.phase === 'watching' && e.stats.lists > (before.find((b) => b.id === e.id)?.lists ?? Infinity)),
    );
    // The indicator draws with the tree's rows (V13): a relist shorter than the tree's refresh
    // delay is never drawn, so the spin is not required here (the feed's tests prove it); what
    // it shows meanwhile is only ever the spin or the eye, never a warning.
    assert.ok(texts.every((t) => t.startsWith('$(sync~spin) ') || t === `$(eye) ${INFORMERS}/${INFORMERS}`), `the status bar only spun while relisting: ${JSON.stringify(texts)}`);
    // The indicator draws with the tree's rows, a moment after the entries settle (V13).
    await until(() => api.statusBar.model.text === `$(eye) ${INFORMERS}/${INFORMERS}`, () => `the status bar back to $(eye): ${api.statusBar.model.text}`);
    for (const b of before) {
      const entry = api.manager.entry(b.id);
      assert.equal(entry?.informer, b.informer, `${entry?.label}: the same informer (the cache is kept)`);
      assert.equal(entry?.stats.lists, b.lists + 1, `${entry?.label}: one list`);
    }
    await until(() => server.openWatches() === INFORMERS, () => `open watches ${server.openWatches()}, informers ${INFORMERS}`);
    assert.equal(server.openWatches('configmaps'), 1);
    assert.equal(server.openWatches('secrets'), 1);
    const lines = logSince(api, logFrom);
    for (const resource of ['configmaps', 'secrets']) {
      assert.ok(
        lines.some((l) => l === `info [kw-test/${resource}] restart requested by the Restart All Watches command`),
        `a restart line for ${resource} in ${JSON.stringify(lines, null, 1)}`,
      );
    }
  });

  it('kubeWatch.restartWatch with a resource node restarts that watch only', async () => {
    const { api, server } = fx;
    const cm = statsOf(api, 'configmaps');
    const secrets = statsOf(api, 'secrets');
    const logFrom = api.log.recentLines().length;
    await vscode.commands.executeCommand('kubeWatch.restartWatch', resourceNode(api, 'configmaps'));
    await until(() => entryOf(api, 'configmaps').stats.lists === cm.lists + 1 && entryOf(api, 'configmaps').state.phase === 'watching', () => describeEntries(api));
    assert.equal(entryOf(api, 'secrets').stats.lists, secrets.lists, 'secrets did not relist');
    const lines = logSince(api, logFrom);
    assert.ok(lines.includes('info [kw-test/configmaps] restart requested by the Restart Watch command'), JSON.stringify(lines, null, 1));
    assert.ok(!lines.some((l) => l.startsWith('info [kw-test/secrets] restart requested')), JSON.stringify(lines, null, 1));
    await until(() => server.openWatches('configmaps') === 1 && server.openWatches() === INFORMERS, () => `open watches ${server.openWatches()}`);
  });

  it('kubeWatch.restartWatch with an object node restarts the watch of that object', async () => {
    const { api } = fx;
    const secrets = statsOf(api, 'secrets');
    const cm = statsOf(api, 'configmaps');
    await vscode.commands.executeCommand('kubeWatch.restartWatch', objectAt('secrets', 'default', 'db-credentials'));
    await until(() => entryOf(api, 'secrets').stats.lists === secrets.lists + 1 && entryOf(api, 'secrets').state.phase === 'watching', () => describeEntries(api));
    assert.equal(entryOf(api, 'configmaps').stats.lists, cm.lists);
  });

  it("kubeWatch.openObject opens a kubewatch: document with the object's YAML that follows the server", async () => {
    const { server } = fx;
    const node = objectAt('configmaps', 'default', 'alpha');
    await vscode.commands.executeCommand('kubeWatch.openObject', node);
    await until(() => objectDocument('default', 'alpha') !== undefined, () => `a kubewatch: document; open: ${vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', ')}`);
    const doc = objectDocument('default', 'alpha') as vscode.TextDocument;
    assert.equal(doc.uri.scheme, 'kubewatch');
    assert.equal(doc.uri.path, '/kw-test/default/ConfigMap\u2215alpha.yaml', 'the tab reads ConfigMap∕alpha.yaml, the context and namespace its description');
    assert.equal(doc.languageId, 'yaml');
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document === doc), 'shown in an editor');
    const serverObject = server.get('configmaps', 'default', 'alpha');
    assert.ok(serverObject);
    assert.deepEqual(load(doc.getText()), shown(serverObject, 'v1', 'ConfigMap'));
    assert.match(doc.getText(), /^apiVersion: v1\nkind: ConfigMap\nmetadata:\n/, 'apiVersion, kind and metadata first');

    const updated = server.update('configmaps', { ...serverObject, data: { greeting: 'hello again' } });
    await until(
      () => (load(objectDocument('default', 'alpha')?.getText() ?? '') as { metadata?: { resourceVersion?: string } })?.metadata?.resourceVersion === updated.metadata.resourceVersion,
      () => `the document at resourceVersion ${updated.metadata.resourceVersion}:\n${objectDocument('default', 'alpha')?.getText()}`,
    );
    assert.deepEqual(load((objectDocument('default', 'alpha') as vscode.TextDocument).getText()), shown(updated, 'v1', 'ConfigMap'));
  });

  it('keeps the last known state of a deleted object in its document, under a "deleted" comment', async () => {
    const { server } = fx;
    server.create('configmaps', { metadata: { name: 'doomed', namespace: 'default' }, data: { k: 'v' } });
    await until(() => nodeAt(fx.api, 'configmaps', 'default', 'doomed') !== undefined, () => treeText(fx.api).join('\n'));
    await vscode.commands.executeCommand('kubeWatch.openObject', objectAt('configmaps', 'default', 'doomed'));
    await until(() => objectDocument('default', 'doomed') !== undefined, () => 'the document of doomed');
    server.delete('configmaps', 'default', 'doomed');
    await until(
      () => /^# deleted at \S+ \(last known state\)\n/.test(objectDocument('default', 'doomed')?.getText() ?? ''),
      () => `a "deleted" header:\n${objectDocument('default', 'doomed')?.getText()}`,
    );
    assert.match((objectDocument('default', 'doomed') as vscode.TextDocument).getText(), /\n {2}k: v\n/);
  });

  it("masks a Secret's values in its document", async () => {
    const { server } = fx;
    await vscode.commands.executeCommand('kubeWatch.openObject', objectAt('secrets', 'default', 'db-credentials'));
    await until(() => objectDocument('default', 'db-credentials') !== undefined, () => 'the document of db-credentials');
    const text = (objectDocument('default', 'db-credentials') as vscode.TextDocument).getText();
    const secret = server.get('secrets', 'default', 'db-credentials') as unknown as { data: Record<string, string> };
    assert.ok(!text.includes(secret.data.password), `the value is not shown:\n${text}`);
    assert.ok(!text.includes('hunter2'));
    const parsed = load(text) as { kind: string; data: Record<string, string> };
    assert.equal(parsed.kind, 'Secret');
    assert.deepEqual(parsed.data, { password: SECRET_MASK }, 'the key is shown, its value masked');
  });

  it('kubeWatch.loadMore on the "N more…" row of a long list shows the next page of objects', async () => {
    const { api, server } = fx;
    const model = api.tree.model;
    const total = 503;
    for (let i = 0; i < total; i++) server.create('configmaps', { metadata: { name: `many-${String(i).padStart(3, '0')}`, namespace: 'many' } });
    try {
      const rows = () => {
        const ns = nodeAt(api, 'configmaps', 'many');
        return ns ? model.getChildren(ns) : [];
      };
      await until(
        () => rows().length > 0 && rows().at(-1)?.kind === 'more' && (rows().at(-1) as { remaining?: number }).remaining === total - (rows().length - 1),
        () => `a page of objects and a "more" row under configmaps > many (${rows().length} rows)`,
      );
      const before = rows();
      const more = before.at(-1) as TreeNode;
      const shown = before.length - 1;
      assert.ok(shown < total, `a page of ${shown} objects, not all ${total}`);
      assert.match(model.present(more).label, new RegExp(`^${total - shown} more`));
      await vscode.commands.executeCommand('kubeWatch.loadMore', more);
      await until(() => rows().filter((n) => n.kind === 'object').length === total, () => `all ${total} objects after Load More (${rows().length} rows)`);
      assert.ok(!rows().some((n) => n.kind === 'more'), 'no "more" row once everything is shown');
      assert.equal(model.present(rows().at(-1) as TreeNode).label, `many-${total - 1}`);
    } finally {
      for (let i = 0; i < total; i++) server.delete('configmaps', 'many', `many-${String(i).padStart(3, '0')}`);
    }
    await until(() => nodeAt(api, 'configmaps', 'many') === undefined, () => 'the "many" namespace gone from the tree');
    await settled(fx);
  });
});
