import type { Disposable } from '../../base';
import { releasesFrom, revisionRecordOf, type HelmRelease, type ReleaseStorage, type RevisionRecord } from '../../helm';
import type { ResourceType } from '../../informer';
import type { AdHocWatch, WatchManager } from '../../manager';

const SECRETS: ResourceType = { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true };
const CONFIGMAPS: ResourceType = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

/** One configured context's releases: two metadata-only watches (Secret and ConfigMap drivers). */
interface ContextWatches {
  readonly spec: string;
  readonly watches: { storage: ReleaseStorage; watch: AdHocWatch; sub: Disposable }[];
}

/**
 * The releases of every configured context, from metadata-only watches of `owner=helm` Secrets and
 * ConfigMaps (labels only on the wire). Started on first use; ended watches (a context replaced)
 * are asked for again on the next read. `dispose` stops them all.
 */
export class HelmReleaseSource implements Disposable {
  private readonly contexts = new Map<string, ContextWatches>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly manager: WatchManager) {}

  /** The configured context specs ('' = the current-context). */
  specs(): string[] {
    const configured = this.manager.configuration.contexts;
    return configured.length > 0 ? configured : [''];
  }

  /** The context's name as the manager resolved it (for the CLI's --kube-context and the texts). */
  contextName(spec: string): string {
    const resolved = this.manager.contextKubeconfig(spec)?.contextName;
    if (resolved) return resolved;
    if (spec) return spec;
    const entry = this.manager.entries().find((e) => this.manager.contextSpecOf(e.id) === spec && e.context);
    return entry?.context ?? '';
  }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The releases of a context (its watches started if they are not). */
  releases(spec: string): HelmRelease[] {
    const ctx = this.ensure(spec);
    const records: RevisionRecord[] = [];
    for (const { storage, watch } of ctx.watches) for (const o of watch.list()) {
      const r = revisionRecordOf(o, storage);
      if (r) records.push(r);
    }
    return releasesFrom(records);
  }

  /** Why a context shows no releases yet (connecting, refused), or undefined when its watches are synced. */
  problem(spec: string): string | undefined {
    for (const { watch } of this.ensure(spec).watches) {
      const s = watch.state;
      if (!s.synced) return s.reason ?? s.phase;
    }
    return undefined;
  }

  private ensure(spec: string): ContextWatches {
    let ctx = this.contexts.get(spec);
    if (ctx && ctx.watches.some((w) => w.watch.ended !== undefined)) {
      this.stop(ctx);
      ctx = undefined;
    }
    if (!ctx) {
      const fire = () => this.listeners.forEach((l) => l());
      const watches = (['secret', 'configmap'] as const).map((storage) => {
        const watch = this.manager.watchAdHoc({ spec, type: storage === 'secret' ? SECRETS : CONFIGMAPS, labelSelector: 'owner=helm', metadataOnly: true, purpose: 'Helm releases' });
        return { storage, watch, sub: watch.onDidChange(fire) };
      });
      ctx = { spec, watches };
      this.contexts.set(spec, ctx);
    }
    return ctx;
  }

  private stop(ctx: ContextWatches): void {
    for (const w of ctx.watches) {
      w.sub.dispose();
      w.watch.dispose();
    }
    this.contexts.delete(ctx.spec);
  }

  dispose(): void {
    for (const ctx of [...this.contexts.values()]) this.stop(ctx);
    this.listeners.clear();
  }
}
