import { createHash } from 'node:crypto';
import { describeError, Emitter, type Clock, type Disposable, type TimerHandle } from '../base';
import type { BufferProblem } from '../edit';
import type { KubeObject } from '../informer';
import type { ObjectOrigin } from '../manager';
import { dryRunDocument, unanswered, type DocumentTarget } from './dry-run';
import { DryRunScheduler } from './dry-run-scheduler';
import type { ManifestCluster, ObjectWatch } from './manifest-cluster';
import { parseManifests, type FileProblem, type ManifestDocument, type ManifestFile } from './manifest-documents';
import { documentState, type DocumentState, type DryRunFinding } from './manifest-state';
import { SharedWatches } from './shared-watches';

/**
 * The live state of the manifests open in the workspace. A file is parsed on every change (never
 * waiting on the cluster); each of its documents is resolved by discovery, watched (one watch per
 * object, shared by every document naming it) and compared by a dry run whenever its text or the
 * live object changes (DryRunScheduler: debounced, rate-limited, superseded runs aborted).
 * Invariants: a document's state is computed from what the watch holds now (documentState), so a
 * stale watch never reads "in sync"; `dispose()` stops every watch, timer and request.
 */

/** One document as the lens and the Problems panel see it. */
export interface DocumentView {
  readonly doc: ManifestDocument;
  readonly state: DocumentState;
  /** Problems of the last dry run, on file lines. */
  readonly problems: readonly BufferProblem[];
  readonly target?: DocumentTarget;
  /** The live object and the dry run's result (Show Diff), when both are known. */
  readonly diff?: { live: KubeObject; result: KubeObject };
  /** Where the comparison was made (Apply and Delete are pinned to it). */
  readonly origin?: ObjectOrigin;
  readonly live?: KubeObject;
  /** Conflicting managers' fields, for Apply's confirmation. */
  readonly conflicts?: readonly { field: string; manager: string }[];
}

export interface FileView {
  /** Rendered from a kustomization: the documents are not the file's text (no lines of their own). */
  readonly rendered: boolean;
  readonly parsed: ManifestFile;
  readonly documents: readonly DocumentView[];
  readonly problems: readonly FileProblem[];
}

interface Tracked {
  doc: ManifestDocument;
  textHash: string;
  resolving?: AbortController;
  resolved?: { target: DocumentTarget } | { state: DocumentState };
  watch?: ObjectWatch;
  watchSub?: Disposable;
  seenVersion?: string;
  deletedAt?: number;
  lastInSyncAt?: number;
  /** The next attempt after an unanswered dry run, and how many came before it. */
  retry?: TimerHandle;
  retries?: number;
  outcome?: { textHash: string; finding: DryRunFinding; problems: BufferProblem[]; result?: KubeObject; live?: KubeObject; origin: ObjectOrigin; conflicts?: { field: string; manager: string }[] };
}

export interface ManifestEngineOptions {
  clock: Clock;
  debounceMs?: number;
  concurrency?: number;
  spacingMs?: number;
}

export class ManifestEngine implements Disposable {
  private readonly files = new Map<string, { parsed: ManifestFile; tracked: Map<string, Tracked>; rendered: boolean; namespace?: string }>();
  private readonly changes = new Emitter<string>();
  private readonly scheduler: DryRunScheduler;
  private readonly watches: SharedWatches;
  private readonly clusterSub: Disposable;

  constructor(
    private readonly cluster: ManifestCluster,
    private readonly o: ManifestEngineOptions,
  ) {
    this.scheduler = new DryRunScheduler({ clock: o.clock, debounceMs: o.debounceMs, concurrency: o.concurrency, spacingMs: o.spacingMs });
    this.watches = new SharedWatches(cluster);
    this.clusterSub = cluster.onDidChange(() => this.retarget());
  }

  /** Fires with a file's uri when anything shown for it changed. */
  onDidChange(listener: (uri: string) => void): Disposable {
    return this.changes.on(listener);
  }

  /** How many dry runs each document had (key `uri#doc`), for tests and the bench. */
  get dryRunsStarted(): ReadonlyMap<string, number> {
    return this.scheduler.started;
  }

  /**
   * A file opened or changed: parsed now, compared in the background. `rendered`: `text` is what
   * a kustomization renders (kustomize.ts), shown above the kustomization file.
   */
  update(uri: string, text: string, rendered = false, namespace?: string): void {
    this.show(uri, parseManifests(text), rendered, namespace);
  }

  /** A file whose documents cannot be read (a kustomization that fails, kubectl missing): one line says why. */
  note(uri: string, message: string): void {
    this.show(uri, { kind: 'manifests', documents: [], problems: [{ message, lines: { start: 0, end: 0 } }] }, true);
  }

  /** `namespace`: for documents that name none, before the context's (a kustomization's `namespace:` beside them). */
  private show(uri: string, parsed: ManifestFile, rendered: boolean, namespace?: string): void {
    const before = this.files.get(uri);
    const tracked = new Map<string, Tracked>();
    const docs = parsed.kind === 'manifests' ? parsed.documents : [];
    for (const doc of docs) {
      const id = identityKey(doc);
      const old = before?.tracked.get(id);
      const textHash = createHash('sha1').update(JSON.stringify(doc.object)).digest('hex');
      if (old) {
        before?.tracked.delete(id);
        old.doc = doc;
        old.textHash = textHash;
        tracked.set(id, old);
        this.compare(uri, id, old);
      } else {
        const t: Tracked = { doc, textHash };
        tracked.set(id, t);
        this.resolve(uri, id, t);
      }
    }
    if (before) for (const [id, t] of before.tracked) this.untrack(uri, id, t);
    this.files.set(uri, { parsed, tracked, rendered, ...(namespace ? { namespace } : {}) });
    this.changes.fire(uri);
  }

  /** A file closed (or deleted): its watches and dry runs stop. */
  close(uri: string): void {
    const f = this.files.get(uri);
    if (!f) return;
    for (const [id, t] of f.tracked) this.untrack(uri, id, t);
    this.files.delete(uri);
  }

  uris(): string[] {
    return [...this.files.keys()];
  }

  /** What is shown for `uri` now; undefined when the file is not followed. */
  view(uri: string): FileView | undefined {
    const f = this.files.get(uri);
    if (!f) return undefined;
    const documents = [...f.tracked.values()].map((t) => this.documentView(uri, t)).sort((a, b) => a.doc.lines.start - b.doc.lines.start);
    return { rendered: f.rendered, parsed: f.parsed, documents, problems: f.parsed.kind === 'manifests' ? f.parsed.problems : [] };
  }

  /** Compares every document of `uri` again (or of every file). */
  refresh(uri?: string): void {
    for (const [u, f] of this.files) {
      if (uri && u !== uri) continue;
      for (const [id, t] of f.tracked) {
        this.scheduler.invalidate(`${u}#${id}`);
        if (t.resolved && 'state' in t.resolved) this.resolve(u, id, t);
        else this.compare(u, id, t, true);
      }
    }
  }

  dispose(): void {
    for (const uri of [...this.files.keys()]) this.close(uri);
    this.scheduler.dispose();
    this.watches.dispose();
    this.clusterSub.dispose();
    this.changes.dispose();
  }

  private documentView(uri: string, t: Tracked): DocumentView {
    const target = this.cluster.target(uri);
    if ('problem' in target) return { doc: t.doc, state: { kind: 'no-cluster', reason: target.problem }, problems: [] };
    if (!t.resolved) return { doc: t.doc, state: { kind: 'checking', context: target.context, why: 'finding the kind on the cluster' }, problems: [] };
    if ('state' in t.resolved) return { doc: t.doc, state: t.resolved.state, problems: [] };
    const watch = t.watch;
    const live = watch?.object();
    const outcome = t.outcome?.textHash === t.textHash ? t.outcome : undefined;
    const state = documentState({
      context: target.context,
      watch: watch?.state() ?? { phase: 'connecting', since: this.o.clock.now(), synced: false },
      liveVersion: live?.metadata.resourceVersion,
      deletedAt: t.deletedAt,
      lastInSyncAt: t.lastInSyncAt,
      finding: outcome?.finding,
    });
    if (state.kind === 'in-sync') t.lastInSyncAt = this.o.clock.now();
    const shift = (p: BufferProblem): BufferProblem => ({ ...p, range: { ...p.range, line: p.range.line + t.doc.textLine, endLine: p.range.endLine + t.doc.textLine } });
    return {
      doc: t.doc,
      state,
      problems: (outcome?.problems ?? []).map(shift),
      target: t.resolved.target,
      ...(outcome?.result && outcome.live && outcome.finding.liveVersion === live?.metadata.resourceVersion ? { diff: { live: outcome.live, result: outcome.result } } : {}),
      ...(outcome ? { origin: outcome.origin } : {}),
      ...(live ? { live } : {}),
      ...(outcome?.conflicts ? { conflicts: outcome.conflicts } : {}),
    };
  }

  private resolve(uri: string, id: string, t: Tracked): void {
    t.resolving?.abort();
    const target = this.cluster.target(uri);
    if ('problem' in target) return;
    const ctl = new AbortController();
    t.resolving = ctl;
    t.resolved = undefined;
    this.cluster.resolve(target.spec, t.doc.apiVersion, t.doc.kind, ctl.signal).then((r) => {
      if (ctl.signal.aborted || !this.isTracked(uri, id, t)) return;
      t.resolving = undefined;
      if ('unknown' in r) t.resolved = { state: { kind: 'unknown-kind', context: target.context, apiVersion: t.doc.apiVersion, type: r.unknown } };
      else if ('problem' in r) t.resolved = { state: { kind: 'no-cluster', reason: r.problem } };
      else {
        const namespace = r.type.namespaced ? (t.doc.namespace ?? this.files.get(uri)?.namespace ?? target.namespace) : '';
        t.resolved = { target: { spec: target.spec, type: r.type, namespace, name: t.doc.name } };
        this.attachWatch(uri, id, t);
      }
      this.changes.fire(uri);
    }, (err: unknown) => {
      if (ctl.signal.aborted) return;
      t.resolved = { state: { kind: 'no-cluster', reason: `discovery failed: ${describeError(err)}` } };
      this.changes.fire(uri);
    });
  }

  private attachWatch(uri: string, id: string, t: Tracked): void {
    if (!t.resolved || !('target' in t.resolved)) return;
    const { spec, type, namespace, name } = t.resolved.target;
    t.watch = this.watches.acquire(spec, type, namespace, name);
    t.seenVersion = t.watch.object()?.metadata.resourceVersion;
    t.watchSub = t.watch.onDidChange(() => {
      const now = t.watch?.object()?.metadata.resourceVersion;
      if (t.seenVersion !== undefined && now === undefined && t.watch?.state().phase === 'watching') t.deletedAt = this.o.clock.now();
      if (now !== undefined) t.deletedAt = undefined;
      t.seenVersion = now;
      // A change on the cluster is compared at once; only typing is debounced.
      this.compare(uri, id, t, true);
      this.changes.fire(uri);
    });
    this.compare(uri, id, t, true);
  }

  /** Asks for a dry run when the text or the live object changed since the last one. */
  private compare(uri: string, id: string, t: Tracked, now = false): void {
    if (!t.resolved || !('target' in t.resolved) || !t.watch) return;
    const state = t.watch.state();
    if (state.phase !== 'watching' || !state.synced) return;
    const target = t.resolved.target;
    const live = t.watch.object();
    const fingerprint = `${t.textHash}|${live?.metadata.resourceVersion ?? ''}`;
    this.scheduler.request(`${uri}#${id}`, fingerprint, async (signal) => {
      const origin = this.cluster.origin(target.spec, live);
      if (!origin) return;
      const textHash = t.textHash;
      try {
        const out = await dryRunDocument(this.cluster, origin, t.doc, target, live, signal);
        if (signal.aborted) return;
        const compared = out.live ?? live;
        t.outcome = { textHash, finding: out.finding, problems: out.problems, ...(out.result ? { result: out.result } : {}), ...(compared ? { live: compared } : {}), origin, ...(out.conflicts ? { conflicts: out.conflicts } : {}) };
      } catch (err) {
        if (signal.aborted) return;
        const liveVersion = live?.metadata.resourceVersion ?? '';
        if (unanswered(err)) {
          t.outcome = { textHash, finding: { kind: 'unanswered', liveVersion, message: describeError(err) }, problems: [], origin };
          this.retryLater(uri, id, t);
        } else t.outcome = { textHash, finding: { kind: 'refused', liveVersion, message: describeError(err) }, problems: [], origin };
      }
      if (t.outcome?.finding.kind !== 'unanswered') t.retries = 0;
      this.changes.fire(uri);
    }, now);
  }

  /** Asks again after an unanswered dry run: 1 s, doubling to 30 s, while the document is tracked. */
  private retryLater(uri: string, id: string, t: Tracked): void {
    t.retry?.cancel();
    const delay = Math.min(30_000, 1000 * 2 ** (t.retries ?? 0));
    t.retries = (t.retries ?? 0) + 1;
    t.retry = this.o.clock.setTimer(() => {
      t.retry = undefined;
      if (!this.isTracked(uri, id, t)) return;
      this.scheduler.invalidate(`${uri}#${id}`);
      this.compare(uri, id, t, true);
    }, delay);
  }

  private untrack(uri: string, id: string, t: Tracked): void {
    t.retry?.cancel();
    t.retry = undefined;
    t.resolving?.abort();
    t.watchSub?.dispose();
    t.watch?.dispose();
    t.watch = undefined;
    this.scheduler.forget(`${uri}#${id}`);
  }

  private isTracked(uri: string, id: string, t: Tracked): boolean {
    return this.files.get(uri)?.tracked.get(id) === t;
  }

  /** The context or discovery changed: everything is resolved and watched again. */
  private retarget(): void {
    for (const [uri, f] of this.files) {
      for (const [id, t] of f.tracked) {
        this.untrack(uri, id, t);
        t.outcome = undefined;
        t.deletedAt = undefined;
        t.lastInSyncAt = undefined;
        this.resolve(uri, id, t);
      }
      this.changes.fire(uri);
    }
  }
}

/** A document's identity in its file: kind, namespace as written, name (stable while the user types elsewhere). */
function identityKey(doc: ManifestDocument): string {
  return `${doc.apiVersion}|${doc.kind}|${doc.namespace ?? ''}|${doc.name}`;
}

