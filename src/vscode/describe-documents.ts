import * as vscode from 'vscode';
import { LiveDescription, targetOf, type DescribeTarget, type DescriptionOptions, type DescriptionSource, type Description } from '../describe';
import { groupVersion, type ResourceType } from '../informer';
import { systemClock, type Clock } from '../base';
import { EDIT_SCHEME, OBJECT_SCHEME, parseObjectUri } from './object-documents';
import { objectTabPath } from './tab-title';

/** The URI scheme of live descriptions. */
export const DESCRIBE_SCHEME = 'kubewatch-describe';
export const DESCRIBE_COMMAND = 'kubeWatch.describe';

/**
 * `kubewatch-describe:/context/namespace/Pod∕web?d=…`: the path is for people (the tab shows
 * `Pod∕web`, its description the context and namespace; see tab-title.ts), the query carries the
 * target as base64url JSON.
 */
export function describeUri(target: DescribeTarget, context: string): vscode.Uri {
  const query = `d=${Buffer.from(JSON.stringify(target), 'utf8').toString('base64url')}`;
  return vscode.Uri.from({ scheme: DESCRIBE_SCHEME, path: objectTabPath(context, target.namespace, target.kind, target.name), query });
}

/** The target a `kubewatch-describe:` URI carries, or undefined for a foreign or damaged one. */
export function parseDescribeUri(uri: vscode.Uri): DescribeTarget | undefined {
  if (uri.scheme !== DESCRIBE_SCHEME) return undefined;
  const encoded = new URLSearchParams(uri.query).get('d');
  if (!encoded) return undefined;
  try {
    const v = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<DescribeTarget>;
    const strings = [v.spec, v.kind, v.apiVersion, v.namespace, v.name].every((s) => typeof s === 'string');
    const typed = typeof v.type === 'string' || isResourceType(v.type);
    return strings && typed ? (v as DescribeTarget) : undefined;
  } catch {
    return undefined; // a damaged query: not one of ours
  }
}

function isResourceType(t: unknown): t is ResourceType {
  if (typeof t !== 'object' || t === null) return false;
  const r = t as Record<string, unknown>;
  return ['group', 'version', 'resource', 'kind'].every((k) => typeof r[k] === 'string') && typeof r.namespaced === 'boolean';
}

/** One open description document. */
interface OpenDescription {
  readonly live: LiveDescription;
  uri: vscode.Uri;
  /** The last rendering: what the document shows, and its links. */
  rendered?: Description;
}

/** The identity of a description across URIs. */
function keyOf(t: DescribeTarget): string {
  const type = typeof t.type === 'string' ? t.type : `${t.type.resource}.${t.type.group}`;
  return JSON.stringify([t.spec, type, t.namespace, t.name]);
}

/**
 * Read-only `kubectl describe` documents that follow their object and its Events (a
 * LiveDescription each), with links to owners and related objects, which open their own
 * descriptions. Invariant: a description's watches run only while its document is shown in a
 * tab (or VS Code still has the document open after a re-open); closing the last tab, the
 * document, or disposing the provider stops them.
 */
export class DescribeDocumentProvider implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly docs = new Map<string, OpenDescription>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly source: DescriptionSource & { entry(id: string): { context: string } | undefined },
    private readonly clock: Clock = systemClock,
    private readonly options: DescriptionOptions = {},
  ) {
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((doc) => this.close(doc.uri)),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) if (tab.input instanceof vscode.TabInputText && !this.isShown(tab.input.uri)) this.close(tab.input.uri);
      }),
      // A description shown again from a document VS Code kept (Reopen Closed Editor) runs again.
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        for (const editor of editors) {
          const target = parseDescribeUri(editor.document.uri);
          if (target && !this.docs.has(keyOf(target))) {
            this.track(editor.document.uri, target);
            this.refresh(editor.document.uri);
          }
        }
      }),
    ];
  }

  /** How many descriptions are open (each with its watches). */
  get openCount(): number {
    return this.docs.size;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const target = parseDescribeUri(uri);
    if (!target) return 'Not a Kube Watch description.\n';
    const doc = this.track(uri, target);
    doc.rendered = doc.live.render();
    return doc.rendered.text;
  }

  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const target = parseDescribeUri(document.uri);
    const doc = target && this.docs.get(keyOf(target));
    if (!target || !doc?.rendered) return [];
    const context = this.contextName(target);
    return doc.rendered.links
      .filter((l) => l.line < document.lineCount)
      .map((l) => {
        const link = new vscode.DocumentLink(new vscode.Range(l.line, l.start, l.line, l.end), describeUri(targetOf(l.target, target.spec), context));
        link.tooltip = `Describe ${l.target.kind} ${l.target.namespace ? `${l.target.namespace}/` : ''}${l.target.name}`;
        return link;
      });
  }

  /** Makes sure the description at `uri` runs (after a re-open of a document VS Code kept). */
  track(uri: vscode.Uri, target = parseDescribeUri(uri)): OpenDescription {
    if (!target) throw new Error('not a description');
    const key = keyOf(target);
    let doc = this.docs.get(key);
    if (!doc) {
      const live = new LiveDescription(this.source, target, this.clock, () => this.changed.fire(this.docs.get(key)?.uri ?? uri), this.options);
      doc = { live, uri };
      this.docs.set(key, doc);
    }
    return doc;
  }

  /** Asks VS Code to read the description at `uri` again. */
  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const doc of this.docs.values()) doc.live.dispose();
    this.docs.clear();
    this.changed.dispose();
  }

  private contextName(target: DescribeTarget): string {
    return target.spec;
  }

  private isShown(uri: vscode.Uri): boolean {
    const target = parseDescribeUri(uri);
    if (!target) return false;
    const key = keyOf(target);
    return vscode.window.tabGroups.all.some((g) =>
      g.tabs.some((t) => {
        if (!(t.input instanceof vscode.TabInputText)) return false;
        const other = parseDescribeUri(t.input.uri);
        return other !== undefined && keyOf(other) === key;
      }),
    );
  }

  private close(uri: vscode.Uri): void {
    const target = parseDescribeUri(uri);
    if (!target) return;
    const key = keyOf(target);
    this.docs.get(key)?.live.dispose();
    this.docs.delete(key);
  }
}

/** What the describe command needs of the manager besides the description source. */
export type DescribeManager = DescriptionSource;

/**
 * A command argument as a target: an object tree node (`{ entryId, namespace, name }`), or a row
 * related to one (what a workload owns, a Service's Pods: its `describeTarget`).
 */
function targetFromArg(manager: DescribeManager, arg: unknown): DescribeTarget | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as Record<string, unknown>;
  if (a.kind === 'related' && typeof a.describeTarget === 'object' && a.describeTarget !== null) return a.describeTarget as DescribeTarget;
  if (typeof a.entryId === 'string' && typeof a.namespace === 'string' && typeof a.name === 'string' && (a.kind === undefined || a.kind === 'object')) {
    const entry = manager.entry(a.entryId);
    const spec = manager.contextSpecOf(a.entryId);
    if (!entry?.type || spec === undefined) return undefined;
    return { spec, type: entry.type, kind: entry.type.kind, apiVersion: groupVersion(entry.type), namespace: a.namespace, name: a.name };
  }
  return undefined;
}

/** The object the active editor shows (a live YAML document), as a target. */
function targetOfActiveEditor(manager: DescribeManager): DescribeTarget | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (!uri) return undefined;
  if (uri.scheme === OBJECT_SCHEME || uri.scheme === EDIT_SCHEME) {
    const ref = parseObjectUri(uri);
    return ref ? targetFromArg(manager, ref) : undefined;
  }
  return undefined;
}

/** Lets the user pick one of the watched objects. */
async function pickTarget(manager: DescribeManager): Promise<DescribeTarget | undefined> {
  type Item = vscode.QuickPickItem & { target: DescribeTarget };
  const items: Item[] = [];
  for (const entry of manager.entries()) {
    const spec = manager.contextSpecOf(entry.id);
    if (!entry.type || !entry.informer || spec === undefined) continue;
    for (const obj of entry.informer.list()) {
      const namespace = obj.metadata.namespace ?? '';
      const name = obj.metadata.name ?? '';
      items.push({ label: `${entry.type.kind} ${namespace ? `${namespace}/` : ''}${name}`, description: entry.context, target: { spec, type: entry.type, kind: entry.type.kind, apiVersion: groupVersion(entry.type), namespace, name } });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Nothing to describe yet: no watched object is listed.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'Kube Watch: Describe', placeHolder: 'An object to describe', matchOnDescription: true });
  return picked?.target;
}

/** What registering descriptions gives back: the provider, for the API's counts. */
export interface DescribeRegistration extends vscode.Disposable {
  /** Open descriptions (each runs its own watches). */
  readonly openCount: () => number;
}

/**
 * Registers the `kubewatch-describe:` documents, their links and the command
 * `kubeWatch.describe` (argument: an object tree node; from the palette: the object of the
 * active YAML document, else a pick of the watched objects). `options.stalenessOf` is the tree
 * model's, so that a description's stale banner reads as the YAML document's.
 */
export function registerDescribeDocuments(manager: DescribeManager & { entry(id: string): { context: string } | undefined }, clock?: Clock, options: DescriptionOptions = {}): DescribeRegistration {
  const provider = new DescribeDocumentProvider(manager, clock, options);

  async function open(target: DescribeTarget): Promise<void> {
    const entryContext = manager.entries().find((e) => manager.contextSpecOf(e.id) === target.spec)?.context ?? target.spec;
    const uri = describeUri(target, entryContext);
    const doc = await vscode.workspace.openTextDocument(uri);
    provider.track(doc.uri);
    provider.refresh(doc.uri);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  const registration = vscode.Disposable.from(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(DESCRIBE_SCHEME, provider),
    vscode.languages.registerDocumentLinkProvider({ scheme: DESCRIBE_SCHEME }, provider),
    vscode.commands.registerCommand(DESCRIBE_COMMAND, async (arg?: unknown) => {
      const target = targetFromArg(manager, arg) ?? (arg === undefined ? (targetOfActiveEditor(manager) ?? (await pickTarget(manager))) : undefined);
      if (!target) {
        if (arg !== undefined) void vscode.window.showInformationMessage('Describe works on an object of the Kube Watch view.');
        return;
      }
      await open(target);
    }),
  );
  return Object.assign(registration, { openCount: () => provider.openCount });
}
