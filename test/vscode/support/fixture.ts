// The shared world of the extension-host tests: one local API server, one kubeconfig pointing at
// it, the user settings that point Kube Watch at that kubeconfig, and the activated extension's API.
//
// The extension activates once per extension host, so every suite file works against the same
// activation and the same server. Each suite file is bundled on its own (so this module exists
// once per bundle): the fixture therefore lives on `globalThis`, created by whichever file asks
// first, and torn down by one root-level `after` hook after the last file.
//
// Conventions for the suites: a test may fault the server or change settings, but leaves
// everything as it found it (every informer watching, settings as in SETTINGS, no fault left),
// and starts by waiting for that baseline (`settled`). No test asserts how long something takes:
// every wait is a bounded poll (`until`) whose failure message says what was seen.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KubeWatchApi } from '../../../src/extension';
import type { InformerStats } from '../../../src/informer';
import type { WatchEntry } from '../../../src/manager';
import type { TreeNode } from '../../../src/ui/tree/tree-node';
import { FakeApiServer } from '../../support/apiserver';

export const EXTENSION_ID = 'kube-watch.kube-watch';
export const CONTEXT = 'kw-test';
export const TOKEN = 'kw-test-token';
/** What the suites configure; the tests that change a setting put this value back. */
export const SETTINGS = {
  resources: ['configmaps', 'secrets'],
  namespaces: [] as string[],
} as const;
/** Informers the configuration above makes: one per resource (all namespaces, one context). */
export const INFORMERS = SETTINGS.resources.length;
/** The longest wait for anything, in milliseconds. A bound, not an expectation. */
export const BOUND_MS = 25_000;

export interface Fixture {
  readonly server: FakeApiServer;
  readonly dir: string;
  /** The kubeconfig file `kubeWatch.kubeconfigPath` names. */
  readonly kubeconfig: string;
  readonly extension: vscode.Extension<KubeWatchApi>;
  readonly api: KubeWatchApi;
}

interface Holder {
  fixture?: Promise<Fixture>;
  teardownRegistered?: boolean;
}

const holder: Holder = ((globalThis as { __kubeWatchTestFixture?: Holder }).__kubeWatchTestFixture ??= {});

/**
 * Registers (once, across all suite bundles) the root-level hook that stops the extension's
 * watches, resets the settings and closes the server after the last test. Call at a suite file's
 * top level.
 */
export function registerTeardown(): void {
  if (holder.teardownRegistered) return;
  holder.teardownRegistered = true;
  after(async function () {
    this.timeout(BOUND_MS);
    const pending = holder.fixture;
    holder.fixture = undefined;
    if (!pending) return;
    const fx = await pending.catch(() => undefined);
    if (!fx) return;
    await fx.api.manager.stop();
    await resetSettings();
    await fx.server.close();
    fs.rmSync(fx.dir, { recursive: true, force: true });
  });
}

/** The fixture, created on first use: server, objects, kubeconfig, settings, activation, every informer watching. */
export function fixture(): Promise<Fixture> {
  holder.fixture ??= create();
  return holder.fixture;
}

async function create(): Promise<Fixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-vscode-'));
  const kubeconfig = path.join(dir, 'config');
  const server = await FakeApiServer.start({ token: TOKEN });
  server.create('configmaps', { metadata: { name: 'alpha', namespace: 'default', labels: { app: 'web' } }, data: { greeting: 'hello' } });
  server.create('configmaps', { metadata: { name: 'beta', namespace: 'default' }, data: { size: '2' } });
  server.create('configmaps', { metadata: { name: 'gamma', namespace: 'team-a' }, data: { owner: 'team-a' } });
  server.create('secrets', { metadata: { name: 'db-credentials', namespace: 'default' }, type: 'Opaque', data: { password: Buffer.from('hunter2').toString('base64') } });
  writeKubeconfig(server, kubeconfig);

  const config = vscode.workspace.getConfiguration('kubeWatch');
  await config.update('kubeconfigPath', kubeconfig, vscode.ConfigurationTarget.Global);
  await config.update('contexts', [], vscode.ConfigurationTarget.Global);
  await config.update('resources', [...SETTINGS.resources], vscode.ConfigurationTarget.Global);
  await config.update('namespaces', [...SETTINGS.namespaces], vscode.ConfigurationTarget.Global);

  const extension = vscode.extensions.getExtension<KubeWatchApi>(EXTENSION_ID);
  if (!extension) throw new Error(`the extension ${EXTENSION_ID} is not loaded`);
  const api = await extension.activate();
  const fx: Fixture = { server, dir, kubeconfig, extension, api };
  await settled(fx);
  return fx;
}

/** Writes the kubeconfig for `server` (the good token unless another is given). */
export function writeKubeconfig(server: FakeApiServer, file: string, token = TOKEN): void {
  // Write then rename, so the extension's file watcher never reads a half-written file.
  const temp = `${file}.${process.pid}.tmp`;
  server.writeKubeconfig(temp, { context: CONTEXT, token });
  fs.renameSync(temp, file);
}

export async function resetSettings(): Promise<void> {
  const config = vscode.workspace.getConfiguration('kubeWatch');
  for (const key of ['kubeconfigPath', 'contexts', 'resources', 'namespaces', 'labelSelector', 'maxBackoffSeconds']) {
    await config.update(key, undefined, vscode.ConfigurationTarget.Global);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `predicate` every 25 ms until it holds; fails after `boundMs` with `what()` in the message. */
export async function until(predicate: () => boolean, what: () => string, boundMs = BOUND_MS): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    let ok = false;
    let failure: unknown;
    try {
      ok = predicate();
    } catch (err) {
      failure = err;
    }
    if (ok) return;
    if (Date.now() > deadline) {
      throw new Error(`gave up after ${boundMs} ms waiting for ${what()}${failure ? ` (last check threw: ${String(failure)})` : ''}`);
    }
    await sleep(25);
  }
}

/** One line per entry: label, phase, synced, error: what the failure messages show. */
export function describeEntries(api: KubeWatchApi): string {
  const entries = api.manager.entries();
  if (entries.length === 0) return 'no entries';
  return entries
    .map((e) => `${e.label}: ${e.state.phase}${e.state.reason ? ` (${e.state.reason})` : ''}${e.state.synced ? ', synced' : ''}${e.error ? `, error ${e.error}` : ''}`)
    .join('; ');
}

export function allWatching(api: KubeWatchApi, count = INFORMERS): boolean {
  const entries = api.manager.entries();
  return entries.length === count && entries.every((e) => e.informer !== undefined && e.state.phase === 'watching' && e.state.synced && !e.error);
}

/**
 * The baseline every test starts from and returns to: every informer watching and synced, one
 * watch each open on the server, and the status bar saying so.
 */
export async function settled(fx: Fixture): Promise<void> {
  const { api, server } = fx;
  await until(
    () => allWatching(api) && server.openWatches() === INFORMERS && api.statusBar.model.text === `$(eye) ${INFORMERS}/${INFORMERS}`,
    () => `every informer watching: ${describeEntries(api)}; open watches ${server.openWatches()}; status bar "${api.statusBar.model.text}"`,
  );
}

/** The entry of a configured resource (`configmaps`, `secrets`). */
export function entryOf(api: KubeWatchApi, resource: string): WatchEntry {
  const entry = api.manager.entries().find((e) => e.resource === resource);
  if (!entry) throw new Error(`no entry for ${resource}: ${describeEntries(api)}`);
  return entry;
}

/**
 * A copy of the statistics of a resource's entry. `entry.stats` is the informer's live object
 * (it keeps counting after the entry was read), so a "before" value must be copied.
 */
export function statsOf(api: KubeWatchApi, resource: string): InformerStats {
  return { ...entryOf(api, resource).stats };
}

/** The resource node labelled `label`, or undefined. */
export function resourceNode(api: KubeWatchApi, label: string): TreeNode | undefined {
  const model = api.tree.model;
  return model.getChildren().find((n) => n.kind === 'resource' && model.present(n).label === label);
}

/** The child of `parent` labelled `label`, or undefined. */
export function childNamed(api: KubeWatchApi, parent: TreeNode, label: string): TreeNode | undefined {
  const model = api.tree.model;
  return model.getChildren(parent).find((n) => model.present(n).label === label);
}

/** Follows labels from the root: `nodeAt(api, 'configmaps', 'default', 'alpha')`. */
export function nodeAt(api: KubeWatchApi, ...labels: string[]): TreeNode | undefined {
  let node: TreeNode | undefined;
  for (const label of labels) {
    node = node === undefined ? resourceNode(api, label) : childNamed(api, node, label);
    if (!node) return undefined;
  }
  return node;
}

/** The tree fully expanded, as indented `label · description` lines (presenting every row, as VS Code does). */
export function treeText(api: KubeWatchApi, node?: TreeNode, depth = 0): string[] {
  const model = api.tree.model;
  const out: string[] = [];
  for (const child of model.getChildren(node)) {
    const p = model.present(child);
    out.push(`${'  '.repeat(depth)}${p.label}${p.description ? ` · ${p.description}` : ''}`);
    out.push(...treeText(api, child, depth + 1));
  }
  return out;
}

/**
 * The tree's objects as `resource ns/name rv` lines, sorted: namespaces and objects under each
 * resource node, read through the model's getChildren/present as the view reads them.
 */
export function treeObjects(api: KubeWatchApi): string[] {
  const model = api.tree.model;
  const out: string[] = [];
  const visit = (resource: string, node: TreeNode) => {
    for (const child of model.getChildren(node)) {
      if (child.kind === 'object') out.push(`${resource} ${child.namespace}/${model.present(child).label} ${child.object.metadata.resourceVersion}`);
      else if (child.kind === 'namespace') visit(resource, child);
    }
  };
  for (const root of model.getChildren()) visit(model.present(root).label, root);
  return out.sort();
}

/** The server's objects of the configured resources, in the form of `treeObjects`. */
export function serverObjects(server: FakeApiServer, resources: readonly string[] = SETTINGS.resources): string[] {
  return resources
    .flatMap((resource) => server.list(resource).map((o) => `${resource} ${o.metadata.namespace ?? ''}/${o.metadata.name} ${o.metadata.resourceVersion}`))
    .sort();
}

/** The log lines written since `from` (an index into `recentLines()` taken before). */
export function logSince(api: KubeWatchApi, from: number): string[] {
  return api.log.recentLines().slice(from);
}

/**
 * Records every status bar text shown while `fn` runs and until `settle` holds. The indicator
 * refreshes on each entries change before later listeners run, so a listener sees each state.
 */
export async function recordStatusTexts(api: KubeWatchApi, fn: () => PromiseLike<unknown>, settle: () => boolean): Promise<string[]> {
  const texts: string[] = [api.statusBar.model.text];
  const note = () => {
    const text = api.statusBar.model.text;
    if (texts[texts.length - 1] !== text) texts.push(text);
  };
  // The indicator draws with the tree's rows (V13): note what it shows then, and on every entries change.
  const subscriptions = [api.manager.onDidChangeEntries(note), api.tree.onDidRender(note)];
  try {
    await fn();
    await until(() => (note(), settle()), () => `the status bar to settle; it showed ${JSON.stringify(texts)}; ${describeEntries(api)}`);
  } finally {
    for (const s of subscriptions) s.dispose();
  }
  return texts;
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
