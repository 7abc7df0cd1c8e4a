import { AbortedError, describeError, systemClock, type Clock, type Disposable } from '../base';
import { listResourceTypes } from '../cluster/discovery';
import { resourceTypeName, type KubeTransport, type ResourceType } from '../informer';

/** What the catalog needs of the watch manager (a WatchManager is one). */
export interface CatalogSource {
  /** The connection of a configured context ("" = the current-context), or why it cannot be used. */
  contextConnection(spec: string): { transport: KubeTransport } | { problem: string } | undefined;
}

/** One API group of a context's catalog, with its types by name. */
export interface CatalogGroup {
  /** '' for the core group. */
  readonly name: string;
  readonly types: readonly ResourceType[];
}

/** A context's catalog as known now. */
export interface CatalogState {
  readonly groups?: readonly CatalogGroup[];
  /** True while discovery is asked (again). */
  readonly loading: boolean;
  /** Why the last attempt failed, in words. */
  readonly problem?: string;
  /** When the groups were read (clock ms). */
  readonly loadedAt?: number;
  /** When discovery was last asked (clock ms). */
  readonly triedAt?: number;
}

/** A catalog younger than this is not read again when asked for (a tree re-expanded at once). */
const FRESH_MS = 10_000;

/**
 * Every kind one click away (issue 23, part 3): the resource types a context's server offers, by
 * discovery (custom resources included), grouped by API group (the core group first, then the
 * groups in name order, each group's types by name). Read when first asked for, and again when
 * its row is expanded (at most every FRESH_MS) or by `reload`.
 *
 * Invariants: at most one discovery runs per context; a failure keeps the groups known before and
 * says why; after `dispose()` nothing runs and no listener is called.
 */
export class ResourceCatalog implements Disposable {
  private readonly states = new Map<string, CatalogState>();
  private readonly running = new Map<string, AbortController>();
  private readonly listeners = new Set<(spec: string) => void>();
  private disposed = false;

  constructor(
    private readonly source: CatalogSource,
    private readonly clock: Clock = systemClock,
  ) {}

  onDidChange(listener: (spec: string) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The catalog of `spec` now; starts reading it when it was never read (again after a failure, at most every FRESH_MS). */
  state(spec: string): CatalogState {
    const state = this.states.get(spec) ?? { loading: false };
    if (state.loadedAt === undefined) this.refreshIfOld(spec);
    return this.states.get(spec) ?? state;
  }

  /** Reads the catalog of `spec` again unless it was asked within FRESH_MS (the catalog row expanded: a CRD may have come). */
  refreshIfOld(spec: string): void {
    const state = this.states.get(spec);
    if (!state?.loading && (state?.triedAt === undefined || this.clock.now() - state.triedAt > FRESH_MS)) this.load(spec);
  }

  /**
   * The types `spec` serves, once its catalog is read (read now when it never was): resolves with
   * the types known, or rejects with why none could be read. Never waits past `signal`.
   */
  types(spec: string, signal: AbortSignal): Promise<ResourceType[]> {
    const settled = (s: CatalogState) => (s.groups ? s.groups.flatMap((g) => g.types) : !s.loading && s.problem ? new Error(s.problem) : undefined);
    return new Promise((resolve, reject) => {
      const check = () => {
        const out = settled(this.state(spec));
        if (out === undefined) return false;
        sub.dispose();
        signal.removeEventListener('abort', abort);
        if (out instanceof Error) reject(out);
        else resolve(out);
        return true;
      };
      const abort = () => {
        sub.dispose();
        reject(new AbortedError());
      };
      const sub = this.onDidChange((changed) => void (changed === spec && check()));
      signal.addEventListener('abort', abort, { once: true });
      if (signal.aborted) abort();
      else check();
    });
  }

  /** Reads the catalog of `spec` again now (a Refresh). */
  reload(spec: string): void {
    this.load(spec);
  }

  dispose(): void {
    this.disposed = true;
    for (const ctl of this.running.values()) ctl.abort();
    this.running.clear();
    this.listeners.clear();
  }

  private load(spec: string): void {
    if (this.disposed || this.running.has(spec)) return;
    const connection = this.source.contextConnection(spec);
    const before = this.states.get(spec);
    if (!connection || 'problem' in connection) {
      this.set(spec, { ...before, loading: false, triedAt: this.clock.now(), problem: connection ? connection.problem : 'the context is not watched' });
      return;
    }
    const ctl = new AbortController();
    this.running.set(spec, ctl);
    this.set(spec, { ...before, loading: true, triedAt: this.clock.now(), problem: undefined });
    listResourceTypes(connection.transport, ctl.signal).then(
      (types) => {
        if (this.running.get(spec) !== ctl) return;
        this.running.delete(spec);
        this.set(spec, { groups: groupTypes(types), loading: false, loadedAt: this.clock.now(), triedAt: this.states.get(spec)?.triedAt });
      },
      (err: unknown) => {
        if (this.running.get(spec) !== ctl) return;
        this.running.delete(spec);
        if (err instanceof AbortedError) return;
        this.set(spec, { ...this.states.get(spec), loading: false, problem: `discovery failed: ${describeError(err)}` });
      },
    );
  }

  /** Records a state; listeners hear of it after the current call (a tree may be asking for its children). */
  private set(spec: string, state: CatalogState): void {
    this.states.set(spec, state);
    queueMicrotask(() => {
      if (this.disposed) return;
      for (const l of [...this.listeners]) l(spec);
    });
  }
}

/** Types grouped by API group: the core group first, then by name; each group's types by name. */
export function groupTypes(types: readonly ResourceType[]): CatalogGroup[] {
  const groups = new Map<string, ResourceType[]>();
  for (const t of types) {
    const list = groups.get(t.group) ?? [];
    if (!list.some((x) => x.resource === t.resource)) list.push(t);
    groups.set(t.group, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
    .map(([name, list]) => ({ name, types: list.sort((a, b) => resourceTypeName(a).localeCompare(resourceTypeName(b))) }));
}
