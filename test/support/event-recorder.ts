import type { InformerHandler } from '../../src/informer/informer';
import { keyOf, type KubeObject } from '../../src/informer/kube-object';

/** One handler call as it was seen. */
export interface RecordedEvent {
  type: 'add' | 'update' | 'delete';
  key: string;
  uid: string;
  resourceVersion: string;
  /** For updates: the uid of the old object. */
  oldUid?: string;
  finalStateUnknown?: boolean;
}

/** Summary of an object, as docs/fault-matrix.md compares them: key, uid, resourceVersion. */
export interface ObjectIdentity {
  key: string;
  uid: string;
  resourceVersion: string;
}

/** Records every handler event in order, for the convergence check. */
export class EventRecorder implements InformerHandler {
  readonly name = 'recorder';
  readonly events: RecordedEvent[] = [];

  onAdd(obj: KubeObject): void {
    this.events.push({ type: 'add', ...identity(obj) });
  }

  onUpdate(oldObj: KubeObject, newObj: KubeObject): void {
    this.events.push({ type: 'update', ...identity(newObj), oldUid: oldObj.metadata.uid ?? '' });
  }

  onDelete(obj: KubeObject, finalStateUnknown: boolean): void {
    this.events.push({ type: 'delete', ...identity(obj), finalStateUnknown });
  }

  /**
   * Replays the events onto an empty map. Throws on anything a correct informer never does:
   * an add of a key already present, an update of a missing key or across two uids, a delete of
   * a missing key.
   */
  replay(): Map<string, ObjectIdentity> {
    const map = new Map<string, ObjectIdentity>();
    this.events.forEach((e, i) => {
      const cur = map.get(e.key);
      const where = `event #${i} (${e.type} ${e.key} uid=${e.uid} rv=${e.resourceVersion})`;
      switch (e.type) {
        case 'add':
          if (cur) throw new Error(`${where}: add of a key already present (uid ${cur.uid})`);
          map.set(e.key, { key: e.key, uid: e.uid, resourceVersion: e.resourceVersion });
          break;
        case 'update':
          if (!cur) throw new Error(`${where}: update of a missing key`);
          if (cur.uid !== e.uid || e.oldUid !== e.uid) throw new Error(`${where}: update across two uids (${e.oldUid} -> ${e.uid})`);
          map.set(e.key, { key: e.key, uid: e.uid, resourceVersion: e.resourceVersion });
          break;
        case 'delete':
          if (!cur) throw new Error(`${where}: delete of a missing key`);
          if (cur.uid !== e.uid) throw new Error(`${where}: delete of uid ${e.uid} but the cache held ${cur.uid}`);
          map.delete(e.key);
          break;
      }
    });
    return map;
  }
}

export function identity(obj: KubeObject): ObjectIdentity {
  return { key: keyOf(obj), uid: obj.metadata.uid ?? '', resourceVersion: obj.metadata.resourceVersion ?? '' };
}

/** Sorted `key uid rv` lines: easy to diff in an assertion message. */
export function identityLines(objs: Iterable<ObjectIdentity>): string[] {
  return [...objs].map((o) => `${o.key} ${o.uid} ${o.resourceVersion}`).sort();
}
