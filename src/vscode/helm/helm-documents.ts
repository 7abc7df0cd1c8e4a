import * as vscode from 'vscode';
import type { ResourceCatalog } from '../../catalog';
import { decodeStorageObject, manifestObjects, manifestObjectType, releaseDetailsOf, type HelmRelease, type ManifestObject, type ReleaseDetails, type RevisionRecord } from '../../helm';
import { groupVersion, resourceTypeName, type ResourceType } from '../../informer';
import type { WatchManager } from '../../manager';
import { diffSideText, releaseDocumentText, type LiveState } from '../../ui/helm';
import { REVEAL_OBJECT_COMMAND } from '../find-object';

export const HELM_SCHEME = 'kubewatch-helm';
export const REVEAL_RELEASE_OBJECT_COMMAND = 'kubeWatch.helm.revealObject';

/** What a Helm document shows: a revision of a release (the whole document, or one side of a diff). */
export interface HelmDocAddress {
  /** The configured context spec ('' = the current-context). */
  readonly spec: string;
  readonly storage: HelmRelease['storage'];
  readonly namespace: string;
  readonly name: string;
  readonly revision: number;
  readonly part: 'release' | 'values' | 'manifest';
}

/**
 * A Helm document's URI: a readable path (`/shop/web revision 2.yaml`, the tab's title) and the
 * address in the query, so that the current-context's empty spec never makes a `//` path.
 */
export function helmDocUri(a: HelmDocAddress): vscode.Uri {
  const title = `${a.name} revision ${a.revision}${a.part === 'release' ? '' : ` ${a.part}`}.yaml`;
  const query = new URLSearchParams({ context: a.spec, storage: a.storage, namespace: a.namespace, name: a.name, revision: String(a.revision), part: a.part });
  return vscode.Uri.from({ scheme: HELM_SCHEME, path: `/${a.namespace}/${title}`, query: query.toString() });
}

function addressOf(uri: vscode.Uri): HelmDocAddress | undefined {
  const q = new URLSearchParams(uri.query);
  const storage = q.get('storage');
  const part = q.get('part');
  if ((storage !== 'secret' && storage !== 'configmap') || (part !== 'release' && part !== 'values' && part !== 'manifest')) return undefined;
  return { spec: q.get('context') ?? '', storage, namespace: q.get('namespace') ?? '', name: q.get('name') ?? '', revision: Number(q.get('revision')), part };
}

/** A manifest object of an open release document, where its line is, and the type discovery gave it. */
interface ObjectLine {
  readonly line: number;
  readonly object: ManifestObject;
  readonly namespace: string;
  readonly type: ResourceType | undefined;
}

/** What the documents need of the releases (the view's source). */
export interface ReleaseLookup {
  find(spec: string, storage: string, namespace: string, name: string): HelmRelease | undefined;
  contextName(spec: string): string;
}

/**
 * The read-only Helm documents: a revision decoded on demand (values, objects with their live
 * state, history, notes, hooks, manifest) and the sides of a history diff; above each object of
 * the release a "Reveal in Resources" lens. Payloads are decoded once per revision object (a
 * failure is asked again); the objects' types come from discovery (the Resources tree's catalog).
 */
export class HelmDocuments implements vscode.Disposable {
  private readonly details = new Map<string, Promise<ReleaseDetails>>();
  private readonly objectLines = new Map<string, ObjectLine[]>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  private readonly registrations: vscode.Disposable[];

  constructor(
    private readonly manager: WatchManager,
    private readonly catalog: ResourceCatalog,
    private readonly releases: ReleaseLookup,
    /** Called when a revision was decoded (the tree shows the chart version then). */
    private readonly onDecoded: (spec: string, release: HelmRelease, details: ReleaseDetails) => void,
  ) {
    this.registrations = [
      vscode.workspace.registerTextDocumentContentProvider(HELM_SCHEME, { provideTextDocumentContent: (uri) => this.content(uri) }),
      vscode.languages.registerCodeLensProvider({ scheme: HELM_SCHEME }, { onDidChangeCodeLenses: this.lensesChanged.event, provideCodeLenses: (doc) => this.lenses(doc) }),
      vscode.commands.registerCommand(REVEAL_RELEASE_OBJECT_COMMAND, (target?: { spec: string; type: ResourceType; namespace: string; name: string }) => (target ? this.reveal(target) : undefined)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.objectLines.delete(doc.uri.toString())),
    ];
  }

  /** The decoded revision (read and decoded once). */
  load(spec: string, rel: HelmRelease, rev: RevisionRecord): Promise<ReleaseDetails> {
    const key = `${spec}/${rel.storage}/${rev.namespace}/${rev.objectName}/${rev.uid ?? ''}`;
    let p = this.details.get(key);
    if (!p) {
      p = (async () => {
        const conn = this.manager.contextConnection(spec);
        if (!conn || !('transport' in conn)) throw new Error(conn?.problem ?? 'the context is not connected');
        const obj = await conn.transport.getJson<{ data?: Record<string, unknown> }>(`/api/v1/namespaces/${rev.namespace}/${rel.storage === 'secret' ? 'secrets' : 'configmaps'}/${rev.objectName}`, {}, AbortSignal.timeout(60_000));
        const d = releaseDetailsOf(decodeStorageObject(rel.storage, obj));
        if (rev.revision === rel.latest.revision) this.onDecoded(spec, rel, d);
        return d;
      })();
      this.details.set(key, p);
      p.catch(() => this.details.delete(key));
    }
    return p;
  }

  private async content(uri: vscode.Uri): Promise<string> {
    const a = addressOf(uri);
    if (!a) return '# not a Helm release document';
    const rel = this.releases.find(a.spec, a.storage, a.namespace, a.name);
    const rev = rel?.revisions.find((r) => r.revision === a.revision);
    if (!rel || !rev) return `# release ${a.namespace}/${a.name} revision ${a.revision} is not on the cluster any more`;
    try {
      const d = await this.load(a.spec, rel, rev);
      if (a.part !== 'release') return diffSideText(d, a.part);
      const types = await this.catalog.types(a.spec, AbortSignal.timeout(30_000)).catch(() => undefined);
      const objects = await Promise.all(
        manifestObjects(d.manifest).map(async (object) => {
          const type = types && manifestObjectType(types, object);
          const namespace = type?.namespaced === false ? '' : object.namespace || rel.namespace;
          const live: LiveState = !types ? { found: false, why: 'not read: the cluster’s resource types are not known yet' } : !type ? { found: false, why: `the cluster serves no ${object.kind} in ${object.apiVersion}` } : await this.liveState(a.spec, type, namespace, object.name);
          return { object, type, namespace, live };
        }),
      );
      const text = releaseDocumentText(d, rel, this.releases.contextName(a.spec), objects);
      // The lenses are asked for once the document opens (after this): asked again only when a
      // document already open moved its objects (a lens re-provided under a click loses the click).
      const key = uri.toString();
      const lines = objectLinesOf(text, objects);
      const before = this.objectLines.get(key);
      this.objectLines.set(key, lines);
      if (before && JSON.stringify(before) !== JSON.stringify(lines)) this.lensesChanged.fire();
      return text;
    } catch (err) {
      return `# could not open revision ${a.revision} of ${a.namespace}/${a.name}: ${(err as Error).message}`;
    }
  }

  /** How the object stands on the cluster now: found (ready replicas when it has them) or why not. */
  private async liveState(spec: string, type: ResourceType, namespace: string, name: string): Promise<LiveState> {
    const conn = this.manager.contextConnection(spec);
    if (!conn || !('transport' in conn)) return { found: false, why: 'not connected' };
    const gv = groupVersion(type);
    const base = type.group ? `/apis/${gv}` : `/api/${gv}`;
    try {
      const live = await conn.transport.getJson<{ status?: Record<string, unknown> }>(`${base}${type.namespaced ? `/namespaces/${namespace}` : ''}/${type.resource}/${name}`, {}, AbortSignal.timeout(30_000));
      const st = live.status ?? {};
      return { found: true, summary: st.readyReplicas !== undefined || st.replicas !== undefined ? `${Number(st.readyReplicas ?? 0)}/${Number(st.replicas ?? 0)} ready` : 'present' };
    } catch (err) {
      return { found: false, why: /404|not found/i.test(String((err as Error).message)) ? 'missing on the cluster' : `not read: ${(err as Error).message}` };
    }
  }

  private lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const a = addressOf(doc.uri);
    if (!a) return [];
    return (this.objectLines.get(doc.uri.toString()) ?? [])
      .filter((o) => o.line < doc.lineCount && o.type)
      .map((o) => new vscode.CodeLens(doc.lineAt(o.line).range, { title: `Reveal ${o.object.kind} ${o.object.name} in Resources`, command: REVEAL_RELEASE_OBJECT_COMMAND, arguments: [{ spec: a.spec, type: o.type, namespace: o.namespace, name: o.object.name }] }));
  }

  /** Reveals the object's row in the Resources tree, through the watch of its type on the release's context. */
  private async reveal(target: { spec: string; type: ResourceType; namespace: string; name: string }): Promise<void> {
    const entry = this.manager
      .entries()
      .find((e) => this.manager.contextSpecOf(e.id) === target.spec && e.type?.group === target.type.group && e.type.resource === target.type.resource && (e.namespace === '' || e.namespace === target.namespace));
    const what = `${target.type.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`;
    if (!entry) {
      void vscode.window.showInformationMessage(`${what} has no row in the Resources tree: ${resourceTypeName(target.type)} is not watched on this context. Watch it from "All resources" to see it there.`);
      return;
    }
    await vscode.commands.executeCommand(REVEAL_OBJECT_COMMAND, { entryId: entry.id, namespace: target.namespace, name: target.name });
  }

  dispose(): void {
    for (const r of this.registrations) r.dispose();
    this.lensesChanged.dispose();
    this.details.clear();
    this.objectLines.clear();
  }
}

/** The line of each object in the document's OBJECTS section (`#   Kind ns/name: state`). */
function objectLinesOf(text: string, objects: readonly { object: ManifestObject; type: ResourceType | undefined; namespace: string }[]): ObjectLine[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('# ---- OBJECTS'));
  const out: ObjectLine[] = [];
  let from = start + 1;
  for (const o of objects) {
    const prefix = `#   ${o.object.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.object.name}:`;
    const line = lines.findIndex((l, i) => i >= from && l.startsWith(prefix));
    if (line < 0) continue;
    out.push({ line, object: o.object, namespace: o.namespace, type: o.type });
    from = line + 1;
  }
  return out;
}
