import { Emitter, type Disposable } from '../base';
import { resourceTypeName, type ResourceType } from '../informer';
import type { ManifestCluster, ObjectWatch, TypeWatch } from './manifest-cluster';

/** One name of a group: the documents holding it, and its own watch while it is alone. */
interface NameEntry {
  users: number;
  single: ObjectWatch | undefined;
  singleSub: Disposable | undefined;
  readonly changes: Emitter<void>;
}

/** The names of one (context, type, namespace), and the type-wide watch once two names share it. */
interface Group {
  readonly spec: string;
  readonly type: ResourceType;
  readonly namespace: string | undefined;
  readonly names: Map<string, NameEntry>;
  wide: TypeWatch | undefined;
  wideSub: Disposable | undefined;
  /** The wide watch has synced once: the names read from it and their own watches are closed. */
  wideReady: boolean;
  /** Nothing opened yet: the names acquired in the same turn are counted first (a folder opening). */
  opening: boolean;
  /** Listing the type there is forbidden (RBAC by resourceNames): each name keeps a watch of its own. */
  byName: boolean;
}

/**
 * The documents' watches, grouped by (context, type, namespace), opened once the names acquired
 * in the same turn are known (a microtask later). A name alone in its group has a
 * watch of its own (`metadata.name=`); once a second name joins, one watch of the whole type in
 * that namespace serves every name of the group (the names picked client-side), and the names'
 * own watches close when it has synced (until then they keep answering). A document naming an
 * object already held shares its watch. When listing the type there is forbidden (RBAC granting
 * names only), every name of the group gets its own watch again. The group's watches stop when its last document lets go;
 * a group that went wide stays wide until then.
 */
export class SharedWatches implements Disposable {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly cluster: ManifestCluster) {}

  /** How many watches are open (single-name and type-wide). */
  get count(): number {
    let n = 0;
    for (const g of this.groups.values()) {
      if (g.wide) n++;
      for (const e of g.names.values()) if (e.single) n++;
    }
    return n;
  }

  /** What is open, for tests: `type/namespace` for a wide watch, `type/namespace/name` for a single one. */
  describe(): string[] {
    const out: string[] = [];
    for (const g of this.groups.values()) {
      const where = `${resourceTypeName(g.type)}/${g.namespace ?? ''}`;
      if (g.wide) out.push(where);
      for (const [name, e] of g.names) if (e.single) out.push(`${where}/${name}`);
    }
    return out.sort();
  }

  acquire(spec: string, type: ResourceType, namespace: string | undefined, name: string): ObjectWatch {
    const key = `${spec}|${resourceTypeName(type)}|${namespace ?? ''}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { spec, type, namespace, names: new Map(), wide: undefined, wideSub: undefined, wideReady: false, opening: true, byName: false };
      this.groups.set(key, group);
      const opened = group;
      // The documents of a folder resolve together: one watch for them all, not one per name first.
      queueMicrotask(() => {
        if (this.groups.get(key) !== opened || !opened.opening) return;
        opened.opening = false;
        const [only] = opened.names;
        if (opened.names.size === 1 && only) this.openSingle(opened, only[1], only[0]);
        else this.openWide(opened);
        for (const e of opened.names.values()) e.changes.fire();
      });
    }
    let entry = group.names.get(name);
    if (!entry) {
      entry = { users: 0, single: undefined, singleSub: undefined, changes: new Emitter<void>() };
      group.names.set(name, entry);
      // Joins the group's watch (open, or opening this turn); a second name turns a single-name group wide.
      if (group.byName) this.openSingle(group, entry, name);
      else if (!group.wide && !group.opening) this.openWide(group);
    }
    entry.users++;
    return this.handle(key, group, entry, name);
  }

  dispose(): void {
    for (const g of this.groups.values()) this.closeGroup(g);
    this.groups.clear();
  }

  private handle(key: string, group: Group, entry: NameEntry, name: string): ObjectWatch {
    let released = false;
    const changes = new Emitter<void>();
    const sub = entry.changes.on(() => changes.fire());
    /** The group's watch once it has synced (or when the name has none of its own), else the name's own. */
    const wide = () => (group.wide && (group.wideReady || !entry.single) ? group.wide : undefined);
    return {
      state: () => wide()?.state() ?? entry.single?.state() ?? { phase: 'connecting', reason: 'opening the watch', since: 0, synced: false },
      object: () => {
        const w = wide();
        return w ? w.get(name) : entry.single?.object();
      },
      onDidChange: (listener) => changes.on(listener),
      dispose: () => {
        if (released) return;
        released = true;
        sub.dispose();
        changes.dispose();
        if (--entry.users > 0 || group.names.get(name) !== entry) return;
        group.names.delete(name);
        this.closeSingle(entry);
        entry.changes.dispose();
        if (group.names.size === 0 && this.groups.get(key) === group) {
          this.groups.delete(key);
          this.closeGroup(group);
        }
      },
    };
  }

  private openSingle(group: Group, entry: NameEntry, name: string): void {
    entry.single = this.cluster.watch(group.spec, group.type, group.namespace, name);
    entry.singleSub = entry.single.onDidChange(() => entry.changes.fire());
  }

  private openWide(group: Group): void {
    const wide = this.cluster.watchAll(group.spec, group.type, group.namespace);
    group.wide = wide;
    group.wideSub = wide.onDidChange((name) => {
      if (!group.wideReady && wide.state().phase === 'forbidden') return this.fallBackToNames(group);
      if (!group.wideReady && wide.state().synced) {
        // Synced: every name now reads from the group's watch; their own watches close.
        group.wideReady = true;
        for (const e of group.names.values()) this.closeSingle(e);
        for (const e of group.names.values()) e.changes.fire();
        return;
      }
      if (name === undefined) for (const e of group.names.values()) e.changes.fire();
      else group.names.get(name)?.changes.fire();
    });
    if (wide.state().synced) {
      group.wideReady = true;
      for (const e of group.names.values()) this.closeSingle(e);
    }
  }

  /** The type may not be listed there, perhaps each name may be read: a watch per name, as when alone. */
  private fallBackToNames(group: Group): void {
    group.byName = true;
    group.wideSub?.dispose();
    group.wide?.dispose();
    group.wideSub = undefined;
    group.wide = undefined;
    for (const [name, e] of group.names) {
      if (!e.single) this.openSingle(group, e, name);
      e.changes.fire();
    }
  }

  private closeSingle(entry: NameEntry): void {
    entry.singleSub?.dispose();
    entry.single?.dispose();
    entry.singleSub = undefined;
    entry.single = undefined;
  }

  private closeGroup(group: Group): void {
    group.opening = false;
    for (const e of group.names.values()) {
      this.closeSingle(e);
      e.changes.dispose();
    }
    group.names.clear();
    group.wideSub?.dispose();
    group.wide?.dispose();
    group.wideSub = undefined;
    group.wide = undefined;
  }
}
