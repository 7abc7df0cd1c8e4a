import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KubeObject } from '../../../src/informer';
import type { TreeNode } from '../../../src/ui/tree/tree-node';
import { SECRET_MASK } from '../../../src/ui/object-yaml';
import {
  COMPARE_WITH_LIVE_COMMAND,
  HISTORY_SCHEME,
  SHOW_DELETED_OBJECTS_COMMAND,
  SHOW_OBJECT_HISTORY_COMMAND,
  registerObjectHistory,
  type ObjectHistoryRegistration,
} from '../../../src/vscode/object-history';
import { INFORMERS, SETTINGS, childNamed, closeAllEditors, describeEntries, fixture, registerTeardown, settled, treeText, until, type Fixture } from '../support/fixture';

registerTeardown();

const DEPLOYMENTS = 'deployments.apps';

/**
 * The history commands against the extension's own watch manager and the shared local API
 * server. The commands are the extension's when its activation registers them (its API then
 * carries the registration as `history`); otherwise this suite registers them on the same manager.
 * Deployments are watched for the length of the suite (the setting is put back afterwards).
 */
describe('object history', () => {
  let fx: Fixture;
  let history: ObjectHistoryRegistration;
  let own: ObjectHistoryRegistration | undefined;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
    await settled(fx);
    const wired = (fx.api as { history?: ObjectHistoryRegistration }).history;
    if (wired) {
      history = wired;
    } else {
      const registered = await vscode.commands.getCommands(true);
      assert.ok(!registered.includes(SHOW_OBJECT_HISTORY_COMMAND), 'the extension registers the history commands but its API has no `history`');
      own = registerObjectHistory(fx.api.manager);
      history = own;
    }
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources, DEPLOYMENTS], vscode.ConfigurationTarget.Global);
    const watchingAll = () => {
      const entries = fx.api.manager.entries();
      return entries.length === INFORMERS + 1 && entries.every((e) => e.informer !== undefined && e.state.phase === 'watching' && e.state.synced);
    };
    await until(watchingAll, () => describeEntries(fx.api));
  });

  after(async function () {
    this.timeout(60_000);
    await closeAllEditors();
    for (const [resource, name] of [
      [DEPLOYMENTS, 'web'],
      ['secrets', 'history-secret'],
    ]) {
      if (fx.server.get(resource, 'default', name)) fx.server.delete(resource, 'default', name);
    }
    await vscode.workspace.getConfiguration('kubeWatch').update('resources', [...SETTINGS.resources], vscode.ConfigurationTarget.Global);
    own?.dispose();
    await settled(fx);
  });

  afterEach(async () => {
    history.activePick()?.hide();
    await closeAllEditors();
  });

  const entryId = (resource: string) => {
    const e = fx.api.manager.entries().find((x) => x.resource === resource);
    assert.ok(e, `an entry for ${resource}: ${describeEntries(fx.api)}`);
    return e.id;
  };
  const cached = (resource: string, name: string): KubeObject | undefined => fx.api.manager.entry(entryId(resource))?.informer?.get('default', name);

  /** Changes an object on the server and waits until the extension's cache has that version. */
  async function serverUpdate(resource: string, name: string, edit: (obj: any) => void): Promise<void> {
    const obj = structuredClone(fx.server.get(resource, 'default', name)) as any;
    edit(obj);
    const rv = fx.server.update(resource, obj).metadata.resourceVersion;
    await until(() => cached(resource, name)?.metadata.resourceVersion === rv, () => `${resource} default/${name} at rv ${rv}`);
  }

  const scale = (replicas: number) => serverUpdate(DEPLOYMENTS, 'web', (d) => (d.spec.replicas = replicas));

  /** The tree's node for a resource (by its entry), then `default`, then `name`. */
  function treeNode(resource: string, ...labels: string[]): TreeNode | undefined {
    const model = fx.api.tree.model;
    let node: TreeNode | undefined = model.getChildren().find((n) => n.kind === 'resource' && n.entryIds.includes(entryId(resource)));
    for (const label of labels) node = node && childNamed(fx.api, node, label);
    return node;
  }

  /**
   * Waits for the history quick pick and accepts the item at `index` (of items that are not
   * separators): moves the selection down as the arrow keys do, then presses Enter.
   */
  async function accept(index: number): Promise<vscode.QuickPick<vscode.QuickPickItem>> {
    await until(() => history.activePick() !== undefined && history.activePick()!.items.length > 0, () => 'the quick pick');
    const qp = history.activePick()!;
    const items = qp.items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator);
    await until(() => qp.activeItems[0] === items[0], () => `the first item active, not ${qp.activeItems[0]?.label}`);
    for (let i = 0; i < index; i++) {
      const before = qp.activeItems[0];
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await until(() => qp.activeItems[0] !== before, () => `the selection to move past ${before?.label}`);
    }
    assert.equal(qp.activeItems[0], items[index], `item ${index} active`);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return qp;
  }

  /**
   * The version rows of the shown pick as `$(icon) what changed` (the detail line), after
   * checking V08: each label starts with its resourceVersion and age.
   */
  async function pickVersions(): Promise<string[]> {
    await until(() => history.activePick() !== undefined && history.activePick()!.items.length > 0, () => 'the quick pick');
    const items = history.activePick()!.items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator);
    for (const i of items) assert.match(i.label, /^\$\([\w-]+\) rv \d+ · (\d+[smhdy])+ ago$/, `V08: a version's label is its resourceVersion and age: ${i.label}`);
    return items.map((i) => `${/^\$\([\w-]+\)/.exec(i.label)![0]} ${i.detail}`);
  }

  /** The labels of the shown pick's items, separators left out. */
  async function pickLabels(): Promise<string[]> {
    await until(() => history.activePick() !== undefined && history.activePick()!.items.length > 0, () => 'the quick pick');
    return history
      .activePick()!
      .items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator)
      .map((i) => i.label);
  }

  /** The diff editor now active: its two sides' texts and its title. */
  async function activeDiff(): Promise<{ left: string; right: string; title: string; original: vscode.Uri; modified: vscode.Uri }> {
    let input: unknown;
    await until(
      () => (input = vscode.window.tabGroups.activeTabGroup.activeTab?.input) instanceof vscode.TabInputTextDiff,
      () => `a diff editor; the active tab is ${vscode.window.tabGroups.activeTabGroup.activeTab?.label}`,
    );
    const diff = input as vscode.TabInputTextDiff;
    const left = (await vscode.workspace.openTextDocument(diff.original)).getText();
    const right = (await vscode.workspace.openTextDocument(diff.modified)).getText();
    return { left, right, title: vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', original: diff.original, modified: diff.modified };
  }

  it('Show Object History on a Deployment scaled twice lists both changes, newest first, and opens each as a diff', async () => {
    fx.server.create(DEPLOYMENTS, {
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
    });
    await until(() => cached(DEPLOYMENTS, 'web') !== undefined, () => 'web in the cache');
    await scale(2);
    await scale(3);
    await until(() => treeNode(DEPLOYMENTS, 'default', 'web') !== undefined, () => treeText(fx.api).join('\n'));
    const node = treeNode(DEPLOYMENTS, 'default', 'web');

    let running = vscode.commands.executeCommand(SHOW_OBJECT_HISTORY_COMMAND, node);
    assert.deepEqual(await pickVersions(), ['$(edit) spec.replicas 2 → 3', '$(edit) spec.replicas 1 → 2', '$(add) created']);
    const qp = history.activePick()!;
    assert.match(qp.title ?? '', /^History of Deployment default\/web \(3 versions\)$/);
    assert.match(qp.items[0].description ?? '', /^\d{1,2}:\d\d:\d\d( [AP]M)? \S+ · watch event$/);
    await accept(0);
    await running;
    let diff = await activeDiff();
    assert.equal(diff.original.scheme, HISTORY_SCHEME);
    assert.match(diff.left, /^ {2}replicas: 2$/m);
    assert.match(diff.right, /^ {2}replicas: 3$/m);
    assert.match(diff.title, /^default\/web: rv \d+ \(.*\) ↔ rv \d+ \(.*\)$/);

    await closeAllEditors();
    running = vscode.commands.executeCommand(SHOW_OBJECT_HISTORY_COMMAND, node);
    await accept(1);
    await running;
    diff = await activeDiff();
    assert.match(diff.left, /^ {2}replicas: 1$/m);
    assert.match(diff.right, /^ {2}replicas: 2$/m);

    // The first version: a diff from nothing.
    await closeAllEditors();
    running = vscode.commands.executeCommand(SHOW_OBJECT_HISTORY_COMMAND, { entryId: entryId(DEPLOYMENTS), namespace: 'default', name: 'web' });
    await accept(2);
    await running;
    diff = await activeDiff();
    assert.equal(diff.left, '');
    assert.match(diff.right, /^kind: Deployment$/m);
  });

  it('Compare with Live diffs the oldest version kept with the live object, and follows it', async () => {
    const running = vscode.commands.executeCommand(COMPARE_WITH_LIVE_COMMAND, treeNode(DEPLOYMENTS, 'default', 'web'));
    const labels = await pickLabels();
    assert.equal(labels[0], '$(history) The oldest version kept');
    await accept(0);
    await running;
    const diff = await activeDiff();
    assert.match(diff.left, /^ {2}replicas: 1$/m);
    assert.match(diff.right, /^ {2}replicas: 3$/m);
    await scale(4);
    await until(
      () => /^ {2}replicas: 4$/m.test(vscode.workspace.textDocuments.find((d) => d.uri.toString() === diff.modified.toString())?.getText() ?? ''),
      () => 'the live side to show 4 replicas',
    );
  });

  it('masks Secret values in history documents and names only the changed keys', async () => {
    fx.server.create('secrets', { metadata: { name: 'history-secret', namespace: 'default' }, type: 'Opaque', data: { password: Buffer.from('first-value').toString('base64') } });
    await until(() => cached('secrets', 'history-secret') !== undefined, () => 'the secret in the cache');
    await serverUpdate('secrets', 'history-secret', (s) => (s.data.password = Buffer.from('second-value').toString('base64')));
    const running = vscode.commands.executeCommand(SHOW_OBJECT_HISTORY_COMMAND, { entryId: entryId('secrets'), namespace: 'default', name: 'history-secret' });
    assert.deepEqual(await pickVersions(), ['$(edit) data.password', '$(add) created']);
    await accept(0);
    await running;
    const diff = await activeDiff();
    for (const text of [diff.left, diff.right]) {
      assert.ok(text.includes(`password: ${SECRET_MASK}`), text);
      assert.ok(!text.includes(Buffer.from('first-value').toString('base64')) && !text.includes(Buffer.from('second-value').toString('base64')), text);
    }
  });

  it('keeps a deleted Deployment reachable through Show Deleted Objects, with its deletion as the newest version', async () => {
    const id = entryId(DEPLOYMENTS);
    const resource = treeNode(DEPLOYMENTS);
    fx.server.delete(DEPLOYMENTS, 'default', 'web');
    await until(() => cached(DEPLOYMENTS, 'web') === undefined && history.store.gone([id]).length === 1, () => 'web deleted');
    await until(() => treeNode(DEPLOYMENTS, 'default', 'web') === undefined, () => treeText(fx.api).join('\n'));

    const running = vscode.commands.executeCommand(SHOW_DELETED_OBJECTS_COMMAND, resource);
    const labels = await pickLabels();
    assert.deepEqual(labels, ['$(trash) default/web']);
    assert.match(history.activePick()!.items[0].description ?? '', /^Deployment · deleted \d+s ago$/);
    await accept(0);
    // The object's history follows: the deletion first.
    await until(() => (history.activePick()?.title ?? '').startsWith('History of Deployment default/web'), () => `the history pick, not ${history.activePick()?.title}`);
    const versions = await pickVersions();
    assert.match(versions[0], /^\$\(trash\) deleted/);
    assert.deepEqual(versions.slice(1), ['$(edit) spec.replicas 3 → 4', '$(edit) spec.replicas 2 → 3', '$(edit) spec.replicas 1 → 2', '$(add) created']);
    await accept(0);
    await running;
    const diff = await activeDiff();
    assert.match(diff.right, /^ {2}replicas: 4$/m);
  });
  it('V07 Compare with Live on an object never changed says "no changes"; while paused the live side reads "last known, rv N (paused)", then follows again', async () => {
    fx.server.create('secrets', { metadata: { name: 'compare-quiet', namespace: 'default' }, type: 'Opaque', data: { k: Buffer.from('v').toString('base64') } });
    await until(() => cached('secrets', 'compare-quiet') !== undefined, () => 'compare-quiet in the cache');
    const rv = cached('secrets', 'compare-quiet')!.metadata.resourceVersion!;
    const shown: string[] = [];
    // The notice goes through showInformationMessage: listen for it on the window's API.
    const original = vscode.window.showInformationMessage;
    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = (message: string, ...rest: unknown[]) => {
      shown.push(message);
      return (original as (m: string, ...r: unknown[]) => Thenable<unknown>)(message, ...rest);
    };
    try {
      await vscode.commands.executeCommand(COMPARE_WITH_LIVE_COMMAND, { entryId: entryId('secrets'), namespace: 'default', name: 'compare-quiet' });
    } finally {
      (vscode.window as { showInformationMessage: unknown }).showInformationMessage = original;
    }
    const diff = await activeDiff();
    assert.equal(diff.left, diff.right, 'one version: the two sides agree');
    assert.ok(shown.some((m) => m.startsWith(`No changes: Secret default/compare-quiet is as it was at rv ${rv}`)), `the notice: ${JSON.stringify(shown)}`);

    await vscode.commands.executeCommand('kubeWatch.pause');
    try {
      const liveText = () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === diff.modified.toString())?.getText() ?? '';
      await until(() => liveText().startsWith(`# last known, rv ${rv} (paused)`), () => `the live side while paused:\n${liveText()}`);
      assert.doesNotMatch(liveText(), /does not exist/);
      assert.match(liveText(), /^kind: Secret$/m);
    } finally {
      await vscode.commands.executeCommand('kubeWatch.resume');
    }
    await until(() => fx.api.manager.entries().length === INFORMERS + 1 && fx.api.manager.entries().every((e) => e.state.phase === 'watching' && e.state.synced), () => describeEntries(fx.api));
    const liveAgain = () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === diff.modified.toString())?.getText() ?? '';
    await until(() => !liveAgain().startsWith('#') && /^kind: Secret$/m.test(liveAgain()), () => `the live side after resume:\n${liveAgain()}`);
    fx.server.delete('secrets', 'default', 'compare-quiet');
  });
});
