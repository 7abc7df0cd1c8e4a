import { keyOf, type KubeObject } from './kube-object';

/** Receives the changes a store makes, in the order it makes them. */
export interface StoreListener {
  add(obj: KubeObject): void;
  update(oldObj: KubeObject, newObj: KubeObject): void;
  /** `finalStateUnknown`: the object vanished while we were not watching; `obj` is the last one we knew. */
  delete(obj: KubeObject, finalStateUnknown: boolean): void;
}

/**
 * The informer's cache: objects keyed by namespace/name. It knows uids, so an object that was
 * deleted and re-created under the same name is never reported as an update: it is a delete of
 * the old uid followed by an add of the new one.
 * Invariant: after every call the map holds exactly the objects the listener was told about.
 */
export class Store {
  private readonly objects = new Map<string, KubeObject>();

  constructor(private readonly listener: StoreListener) {}

  get size(): number {
    return this.objects.size;
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  keys(): IterableIterator<string> {
    return this.objects.keys();
  }

  values(): IterableIterator<KubeObject> {
    return this.objects.values();
  }

  /** ADDED or MODIFIED from a watch: the server's current state of one object. */
  upsert(obj: KubeObject): void {
    const key = keyOf(obj);
    const old = this.objects.get(key);
    this.objects.set(key, obj);
    if (!old) {
      this.listener.add(obj);
    } else if (old.metadata.uid !== obj.metadata.uid) {
      this.listener.delete(old, true);
      this.listener.add(obj);
    } else {
      this.listener.update(old, obj);
    }
  }

  /** DELETED from a watch. `obj` is the object's final state. Unknown keys are ignored. */
  remove(obj: KubeObject): void {
    const key = keyOf(obj);
    const old = this.objects.get(key);
    if (!old) return;
    if (old.metadata.uid !== obj.metadata.uid && obj.metadata.uid) {
      // A delete of a different incarnation than the one we hold: ours vanished unseen.
      this.objects.delete(key);
      this.listener.delete(old, true);
      return;
    }
    this.objects.delete(key);
    this.listener.delete(obj, false);
  }

  /**
   * A complete list: the store becomes exactly `items`. Objects gone from the list are deleted
   * with final state unknown; a changed uid is a delete then an add; a changed resourceVersion
   * is an update; an unchanged one produces no event.
   */
  replace(items: KubeObject[]): void {
    const next = new Map<string, KubeObject>();
    for (const obj of items) next.set(keyOf(obj), obj);
    for (const [key, old] of this.objects) {
      if (!next.has(key)) {
        this.objects.delete(key);
        this.listener.delete(old, true);
      }
    }
    for (const [key, obj] of next) {
      const old = this.objects.get(key);
      if (!old) {
        this.objects.set(key, obj);
        this.listener.add(obj);
      } else if (old.metadata.uid !== obj.metadata.uid) {
        this.objects.set(key, obj);
        this.listener.delete(old, true);
        this.listener.add(obj);
      } else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) {
        this.objects.set(key, obj);
        this.listener.update(old, obj);
      }
    }
  }

  /** Forget everything without telling anyone (used when the informer is discarded). */
  clear(): void {
    this.objects.clear();
  }
}
