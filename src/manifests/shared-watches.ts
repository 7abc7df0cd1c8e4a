import { Emitter, type Disposable } from '../base';
import { resourceTypeName, type ResourceType } from '../informer';
import type { ManifestCluster, ObjectWatch } from './manifest-cluster';

/**
 * One watch per object however many documents name it (a file open twice, a manifest in two
 * files): counted, and stopped when the last document lets it go.
 */
export class SharedWatches implements Disposable {
  private readonly open = new Map<string, { watch: ObjectWatch; users: number }>();

  constructor(private readonly cluster: ManifestCluster) {}

  get count(): number {
    return this.open.size;
  }

  acquire(spec: string, type: ResourceType, namespace: string | undefined, name: string): ObjectWatch {
    const key = `${spec}|${resourceTypeName(type)}|${namespace ?? ''}|${name}`;
    let entry = this.open.get(key);
    if (!entry) {
      entry = { watch: this.cluster.watch(spec, type, namespace, name), users: 0 };
      this.open.set(key, entry);
    }
    entry.users++;
    const shared = entry;
    let released = false;
    const changes = new Emitter<void>();
    const sub = shared.watch.onDidChange(() => changes.fire());
    return {
      state: () => shared.watch.state(),
      object: () => shared.watch.object(),
      onDidChange: (listener) => changes.on(listener),
      dispose: () => {
        if (released) return;
        released = true;
        sub.dispose();
        changes.dispose();
        if (--shared.users === 0 && this.open.get(key) === shared) {
          this.open.delete(key);
          shared.watch.dispose();
        }
      },
    };
  }

  dispose(): void {
    for (const { watch } of this.open.values()) watch.dispose();
    this.open.clear();
  }
}
