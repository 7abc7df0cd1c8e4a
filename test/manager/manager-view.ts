import { keyOf, type KubeObject } from '../../src/informer';
import type { EntryHandler, ObjectsRemoved } from '../../src/manager';

/** key, uid and resourceVersion of an object: what docs/fault-matrix.md compares. */
export function identityLine(obj: KubeObject): string {
  return `${keyOf(obj)} ${obj.metadata.uid ?? ''} ${obj.metadata.resourceVersion ?? ''}`;
}

/**
 * What a view built only from the manager's events holds: handler events and removals replayed,
 * per entry. Throws on anything a correct manager never does (an add of a present key, an update
 * or delete of a missing one or across uids, a removal of an object the view does not hold), so
 * a test that reads it also checks the event stream.
 */
export class ManagerView implements EntryHandler {
  readonly objects = new Map<string, Map<string, KubeObject>>();
  readonly removals: ObjectsRemoved[] = [];

  private of(entryId: string): Map<string, KubeObject> {
    let m = this.objects.get(entryId);
    if (!m) this.objects.set(entryId, (m = new Map()));
    return m;
  }

  onAdd(entryId: string, obj: KubeObject): void {
    const m = this.of(entryId);
    if (m.has(keyOf(obj))) throw new Error(`add of ${keyOf(obj)} already in ${entryId}`);
    m.set(keyOf(obj), obj);
  }

  onUpdate(entryId: string, oldObj: KubeObject, newObj: KubeObject): void {
    const m = this.of(entryId);
    const cur = m.get(keyOf(newObj));
    if (!cur || cur.metadata.uid !== newObj.metadata.uid || oldObj.metadata.uid !== newObj.metadata.uid) {
      throw new Error(`update of ${keyOf(newObj)} in ${entryId} that the view does not hold with that uid`);
    }
    m.set(keyOf(newObj), newObj);
  }

  onDelete(entryId: string, obj: KubeObject): void {
    const m = this.of(entryId);
    const cur = m.get(keyOf(obj));
    if (!cur || cur.metadata.uid !== obj.metadata.uid) throw new Error(`delete of ${keyOf(obj)} in ${entryId} that the view does not hold`);
    m.delete(keyOf(obj));
  }

  removed(event: ObjectsRemoved): void {
    this.removals.push(event);
    const m = this.of(event.entryId);
    for (const obj of event.objects) {
      const cur = m.get(keyOf(obj));
      if (!cur || cur.metadata.uid !== obj.metadata.uid) throw new Error(`removal of ${keyOf(obj)} in ${event.entryId} that the view does not hold`);
      m.delete(keyOf(obj));
    }
  }

  /** Sorted identity lines of one entry (or of all entries). */
  lines(entryId?: string): string[] {
    const maps = entryId === undefined ? [...this.objects.values()] : [this.objects.get(entryId) ?? new Map<string, KubeObject>()];
    return maps.flatMap((m) => [...m.values()].map(identityLine)).sort();
  }
}
