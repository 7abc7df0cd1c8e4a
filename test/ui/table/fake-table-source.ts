import type { Disposable } from '../../../src/base';
import type { KubeObject, TimedLifecycleEvent } from '../../../src/informer';
import type { EntriesChange, EntryHandler, ObjectsRemoved, WatchEntry } from '../../../src/manager';
import type { TableSource } from '../../../src/ui/table';

/** One watch entry's objects in memory, and the manager's events about them, for table tests. */
export class FakeTableSource implements TableSource {
  private readonly handlers = new Set<EntryHandler>();
  private readonly entryListeners = new Set<(c: EntriesChange) => void>();
  private readonly removedListeners = new Set<(r: ObjectsRemoved) => void>();
  private readonly lifecycleListeners = new Set<(id: string, e: TimedLifecycleEvent) => void>();
  readonly objects = new Map<string, KubeObject>();
  phase = 'watching';

  constructor(
    readonly id = 'e1',
    readonly type = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
    readonly context = 'ctx',
  ) {}

  entries(): WatchEntry[] {
    return [this.entry()!];
  }

  entry(): WatchEntry | undefined {
    const list = () => [...this.objects.values()];
    const get = (ns: string | undefined, name: string) => this.objects.get(`${ns ?? ''}/${name}`);
    return {
      id: this.id,
      context: this.context,
      resource: this.type.resource,
      type: this.type,
      namespace: '',
      informer: { list, get } as unknown as WatchEntry['informer'],
      state: { phase: this.phase, since: 0 } as WatchEntry['state'],
      stats: {} as WatchEntry['stats'],
      label: `${this.context}/${this.type.resource}`,
    };
  }

  addHandler(handler: EntryHandler): Disposable {
    this.handlers.add(handler);
    return { dispose: () => this.handlers.delete(handler) };
  }

  onDidChangeEntries(listener: (c: EntriesChange) => void): Disposable {
    this.entryListeners.add(listener);
    return { dispose: () => this.entryListeners.delete(listener) };
  }

  onObjectsRemoved(listener: (r: ObjectsRemoved) => void): Disposable {
    this.removedListeners.add(listener);
    return { dispose: () => this.removedListeners.delete(listener) };
  }

  onLifecycle(listener: (id: string, e: TimedLifecycleEvent) => void): Disposable {
    this.lifecycleListeners.add(listener);
    return { dispose: () => this.lifecycleListeners.delete(listener) };
  }

  get listenerCount(): number {
    return this.handlers.size + this.entryListeners.size + this.removedListeners.size + this.lifecycleListeners.size;
  }

  put(obj: KubeObject): void {
    const key = `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    const old = this.objects.get(key);
    this.objects.set(key, obj);
    for (const h of this.handlers) old ? h.onUpdate?.(this.id, old, obj) : h.onAdd?.(this.id, obj);
  }

  delete(namespace: string, name: string): void {
    const obj = this.objects.get(`${namespace}/${name}`);
    if (!obj) return;
    this.objects.delete(`${namespace}/${name}`);
    for (const h of this.handlers) h.onDelete?.(this.id, obj, false);
  }
}

/** A running pod as kubectl prints it: READY 1/1, `restarts` restarts, created `createdAt`. */
export function pod(name: string, opts: { namespace?: string; restarts?: number; createdAt?: string; labels?: Record<string, string>; phase?: string; node?: string } = {}): KubeObject {
  return {
    metadata: { name, namespace: opts.namespace ?? 'default', creationTimestamp: opts.createdAt ?? '2025-12-31T00:00:00Z', labels: opts.labels ?? {}, uid: name },
    spec: { nodeName: opts.node ?? 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
    status: {
      phase: opts.phase ?? 'Running',
      podIP: '10.0.0.1',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ name: 'app', ready: true, restartCount: opts.restarts ?? 0, state: { running: { startedAt: '2025-12-31T00:00:00Z' } } }],
    },
  } as unknown as KubeObject;
}
