import type { Clock } from '../base';
import { UnknownResourceError } from '../cluster/discovery';
import { resolutionWaitEvents, resolutionWaitState, resolveWithRetry, type ResolutionWait } from '../cluster/resolve-with-retry';
import { Informer, groupVersion, resourceTypeName, type KubeObject, type ResourceType, type TimedLifecycleEvent } from '../informer';
import type { ContextSession } from './context-session';
import { labelOf } from './labels';
import type { WatchManagerOptions } from './manager-options';
import { entryId, slotKey, type EntryRecord, type ResourceSlot } from './resource-slot';
import { CONFIRM_GONE_MS, recheckType, sameObjects, sameType, type RecheckTrigger, type TypeVerdict } from './type-recheck';
import { SlotScoping } from './slot-scoping';
import { informerOptionsKey, type WatchConfig } from './watch-config';
import type { EntryHandler, ObjectsRemoved } from './watch-entry';

/** What the slot reconciler needs from the manager around it. */
export interface SlotHost {
  readonly clock: Clock;
  readonly options: WatchManagerOptions;
  /** The configuration in force now. */
  config(): WatchConfig;
  /** False once the manager stops: nothing new may start. */
  running(): boolean;
  /** Runs `op` in the manager's operation queue. */
  enqueue(op: () => Promise<void>): Promise<void>;
  /** Something an entry shows changed: tell consumers. */
  publish(): void;
  lifecycle(entryId: string, event: TimedLifecycleEvent): void;
  /** An entry's first list grew, or its preview ended (`Informer.onListProgress`). */
  listProgress(entryId: string): void;
  removed(removed: ObjectsRemoved): void;
  /** Hands one informer's cache change to every consumer. */
  dispatch(entryId: string, call: (h: EntryHandler) => void): void;
  /** A slot of `session` resolved its type. */
  resolved(session: ContextSession): void;
}

/**
 * The configured (context, resource) slots and their entries, one informer per (context,
 * resource, namespace), kept matching the configuration.
 * Invariants: an informer that is discarded or replaced is stopped first, then its objects are
 * reported removed, then its successor starts; at most one resolution runs per slot, and its
 * result is applied through the operation queue, only if it is still the slot's current one.
 */
export class SlotReconciler {
  private readonly slots = new Map<string, ResourceSlot>();
  private serial = 0;
  /** Where each resolved type is watched, as the user's permissions allow. */
  private readonly scoping: SlotScoping;

  constructor(private readonly host: SlotHost) {
    this.scoping = new SlotScoping({ ...host, config: () => host.config(), running: () => host.running(), enqueue: (op) => host.enqueue(op), publish: () => host.publish(), lifecycle: (id, e) => host.lifecycle(id, e), decided: (slot) => this.reconcileSlot(slot) });
  }

  values(): IterableIterator<ResourceSlot> {
    return this.slots.values();
  }

  *records(): Generator<EntryRecord> {
    for (const slot of this.slots.values()) yield* slot.entries.values();
  }

  find(id: string): EntryRecord | undefined {
    for (const slot of this.slots.values()) {
      const rec = slot.entries.get(id);
      if (rec) return rec;
    }
    return undefined;
  }

  /** Stops and forgets the slots whose context or resource the configuration no longer names. */
  async removeUnconfigured(specs: readonly string[], resources: ReadonlySet<string>): Promise<void> {
    const retiring: Promise<void>[] = [];
    for (const slot of [...this.slots.values()]) {
      if (!specs.includes(slot.spec) || !resources.has(slot.resource)) retiring.push(this.removeSlot(slot, 'no longer configured'));
    }
    await Promise.all(retiring);
  }

  /** Stops and forgets every slot (objects reported removed). */
  async removeAll(reason: string): Promise<void> {
    await Promise.all([...this.slots.values()].map((slot) => this.removeSlot(slot, reason)));
  }

  /** Adds a slot for every configured (context, resource) that has none yet, and starts resolving it. */
  addConfigured(specs: readonly string[], resources: readonly string[], sessionOf: (spec: string) => ContextSession | undefined): void {
    for (const spec of specs) {
      const session = sessionOf(spec);
      if (!session) continue;
      for (const resource of resources) {
        const key = slotKey(spec, resource);
        if (this.slots.has(key)) continue;
        const slot: ResourceSlot = { key, spec, resource, session, since: this.host.clock.now(), entries: new Map() };
        this.slots.set(key, slot);
        this.startResolution(slot);
      }
    }
  }

  /** Brings every slot's entries in line with the configuration (see `reconcileSlot`). */
  async reconcileAll(): Promise<void> {
    await Promise.all([...this.slots.values()].map((slot) => this.reconcileSlot(slot)));
  }

  /** `session` now serves its spec: that spec's slots forget their type and resolve again on it. */
  rebind(session: ContextSession): void {
    for (const slot of this.slots.values()) {
      if (slot.spec !== session.spec) continue;
      slot.session = session;
      slot.type = undefined;
      slot.wait = undefined;
      stopResolving(slot);
      slot.scope = undefined;
      slot.since = this.host.clock.now();
      if (!session.problem) this.startResolution(slot);
    }
  }

  /** Stops every informer and resolution of a session (objects reported removed). */
  async discardOn(session: ContextSession, reason: string): Promise<void> {
    const slots = [...this.slots.values()].filter((s) => s.session === session);
    for (const slot of slots) stopResolving(slot);
    await Promise.all(slots.flatMap((slot) => [...slot.entries.values()].map((rec) => this.discardInformer(rec, reason))));
  }

  /**
   * Restarts every informer of the slots `which` picks, retries their pending resolutions at once
   * and decides again where their types are watched (the user's permissions may have changed).
   */
  restart(which: (slot: ResourceSlot) => boolean, reason: string): Promise<void>[] {
    const restarts: Promise<void>[] = [];
    for (const slot of this.slots.values()) {
      if (!which(slot)) continue;
      if (!slot.session.problem && !slot.type) this.startResolution(slot);
      if (slot.type && slot.scope) this.rescope(slot);
      for (const rec of slot.entries.values()) if (rec.informer) restarts.push(rec.informer.restart(reason));
    }
    return restarts;
  }

  /** Decides again where a resolved slot's type is watched (its entries stay as they are meanwhile). */
  rescope(slot: ResourceSlot): void {
    this.scoping.forget(slot);
    this.scoping.wanted(slot);
  }

  /** True while some slot of `session` has resolved a type that `matches`. */
  hasResolved(session: ContextSession, matches: (type: ResourceType) => boolean): boolean {
    for (const slot of this.slots.values()) if (slot.session === session && slot.type && matches(slot.type)) return true;
    return false;
  }

  /** The ids of the entries of `session`'s slots whose resolved type `matches`. */
  entryIdsOf(session: ContextSession, matches: (type: ResourceType) => boolean): string[] {
    const ids: string[] = [];
    for (const slot of this.slots.values()) {
      if (slot.session !== session || !slot.type || !matches(slot.type)) continue;
      ids.push(...slot.entries.keys());
    }
    return ids;
  }

  /** Asks discovery again about the types of `session`'s slots that `matches` (see `recheck`). */
  recheckWhere(session: ContextSession, matches: (type: ResourceType) => boolean, trigger: RecheckTrigger): void {
    for (const slot of this.slots.values()) if (slot.session === session && slot.type && matches(slot.type)) this.recheck(slot, trigger);
  }

  /**
   * Asks discovery again what a resolved slot's type is now, once at a time, and applies the
   * answer through the queue: the same type keeps the informers and their caches (F40); another
   * version of it moves them there with their caches (F39); a type listed in no version, twice,
   * removes their objects and resolves again, slowly, until it is served (F30).
   */
  recheck(slot: ResourceSlot, trigger: RecheckTrigger): void {
    const type = slot.type;
    const transport = slot.session.transport;
    if (!type || !transport || slot.rechecking || !this.host.running()) return;
    const ctl = new AbortController();
    slot.rechecking = ctl;
    const informerOptions = this.host.options.informerOptions;
    const maxMs = this.host.config().maxBackoffMs ?? informerOptions?.backoff?.maxMs;
    recheckType(transport, slot.resource, type, {
      clock: this.host.clock,
      signal: ctl.signal,
      backoff: { ...informerOptions?.backoff, ...(maxMs ? { maxMs } : {}) },
      attemptTimeoutMs: informerOptions?.requestTimeoutMs,
      confirmGoneMs: this.host.options.confirmGoneMs ?? CONFIRM_GONE_MS,
      onFirstGone: (message) => {
        if (slot.rechecking !== ctl) return;
        const at = this.host.clock.now();
        for (const rec of slot.entries.values()) this.host.lifecycle(rec.id, { type: 'warning', message, at });
      },
    }).then(
      (verdict) =>
        this.host.enqueue(async () => {
          if (slot.rechecking !== ctl) return;
          slot.rechecking = undefined;
          if (this.slots.get(slot.key) !== slot || !this.host.running() || slot.type !== type) return;
          await this.follow(slot, type, verdict, trigger);
        }),
      () => undefined, // aborted: the slot was removed, rebound or stopped, and whoever aborted cleared `rechecking`
    );
  }

  /** Applies what discovery says of a slot's type `current` (see `recheck`). */
  private async follow(slot: ResourceSlot, current: ResourceType, verdict: TypeVerdict, trigger: RecheckTrigger): Promise<void> {
    const at = this.host.clock.now();
    if ('gone' in verdict) {
      // F30: confirmed gone in every version. Its objects go; resolution retries slowly until it is served again.
      await Promise.all([...slot.entries.values()].map((rec) => this.discardInformer(rec, verdict.gone)));
      slot.type = undefined;
      this.startResolution(slot);
      this.host.publish();
      return;
    }
    const next = verdict.served;
    if (sameType(next, current)) {
      if (trigger === 'not-found') {
        const message = `discovery still serves ${resourceTypeName(current)} as ${groupVersion(current)}: the cached objects stay while the server answers 404`;
        for (const rec of slot.entries.values()) this.host.lifecycle(rec.id, { type: 'warning', message, at });
      }
      return;
    }
    const why = trigger === 'not-found' ? 'after a 404' : trigger === 'definition' ? 'its CustomResourceDefinition changed' : 'found on restart';
    if (sameObjects(current, next)) {
      // F39: the same objects through the version served now; the caches move along, so handlers see at most updates.
      const reason = `${resourceTypeName(current)} moved from ${current.version} to ${next.version} (${why})`;
      slot.type = next;
      await Promise.all([...slot.entries.values()].map((rec) => this.moveInformer(rec, reason)));
      this.host.publish();
      return;
    }
    // The spelling names another type now (another group, or another scope): start over.
    const reason = `${slot.resource} now resolves to ${resourceTypeName(next)} (${why})`;
    await Promise.all([...slot.entries.values()].map((rec) => this.discardInformer(rec, reason)));
    slot.type = next;
    await this.reconcileSlot(slot);
    this.host.resolved(slot.session);
    this.host.publish();
  }

  /** Replaces an entry's informer with one on the slot's (new) type that starts from its cache. */
  private async moveInformer(rec: EntryRecord, reason: string): Promise<void> {
    const old = rec.informer;
    const optionsKey = rec.optionsKey;
    if (!old || optionsKey === undefined) return;
    this.host.lifecycle(rec.id, { type: 'restart', reason, at: this.host.clock.now() });
    rec.informer = undefined;
    await old.stop();
    for (const s of rec.subscriptions) s.dispose();
    rec.subscriptions = [];
    const objects = old.list();
    old.store.clear();
    this.startInformer(rec, optionsKey, objects);
  }

  /** Stops a slot's resolution and entries and forgets it. */
  private async removeSlot(slot: ResourceSlot, reason: string): Promise<void> {
    stopResolving(slot);
    this.slots.delete(slot.key);
    await Promise.all([...slot.entries.values()].map((rec) => this.discardInformer(rec, reason)));
    slot.entries.clear();
  }

  /**
   * Makes a slot's entries match the configuration: one per namespace (one '' entry for a
   * cluster-scoped type or all namespaces); each with a running informer built from the current
   * options once the type is known.
   */
  private async reconcileSlot(slot: ResourceSlot): Promise<void> {
    const config = this.host.config();
    const scoped = this.scoping.wanted(slot);
    if (!scoped) return; // where to watch is being decided: the entries stay as they are meanwhile
    const wanted = scoped.map((s) => s.namespace);
    const denied = new Map(scoped.filter((s) => s.denied).map((s) => [s.namespace, s.denied]));
    const optionsKey = informerOptionsKey(config);
    const stale: Promise<void>[] = [];
    for (const rec of [...slot.entries.values()]) {
      rec.denied = denied.get(rec.namespace);
      if (rec.denied && wanted.includes(rec.namespace)) {
        stale.push(this.discardInformer(rec, 'not allowed for you'));
        continue;
      }
      if (wanted.includes(rec.namespace)) {
        if (rec.informer && rec.optionsKey !== optionsKey) {
          // Logged like any restart, so the log says why the watch starts over.
          const event = { type: 'restart' as const, reason: 'restart requested by a settings change (selectors or timeouts)', at: this.host.clock.now() };
          this.host.lifecycle(rec.id, event);
          stale.push(this.discardInformer(rec, 'selectors or timeouts changed'));
        }
        continue;
      }
      slot.entries.delete(rec.id);
      stale.push(this.discardInformer(rec, `namespace ${rec.namespace || '(all)'} no longer configured`));
    }
    await Promise.all(stale);
    for (const namespace of wanted) {
      const id = entryId(slot.spec, slot.resource, namespace);
      let rec = slot.entries.get(id);
      if (!rec) {
        rec = { id, slot, namespace, serial: 0, subscriptions: [], denied: denied.get(namespace) };
        slot.entries.set(id, rec);
      }
      if (!rec.informer && !rec.denied && slot.type && slot.session.transport && this.host.running()) this.startInformer(rec, optionsKey);
    }
  }

  private startInformer(rec: EntryRecord, optionsKey: string, initialObjects?: KubeObject[]): void {
    const { slot } = rec;
    const type = slot.type;
    const transport = slot.session.transport;
    if (!type || !transport) return;
    const config = this.host.config();
    const extra = this.host.options.informerOptions ?? {};
    const informer = new Informer({
      ...extra,
      transport,
      type,
      namespace: rec.namespace || undefined,
      labelSelector: config.labelSelector,
      fieldSelector: config.fieldSelector,
      timeoutSeconds: config.timeoutSeconds,
      streamingList: config.streamingList ?? extra.streamingList,
      streamingListMemory: slot.session.streamingListMemory,
      backoff: config.maxBackoffMs ? { ...extra.backoff, maxMs: config.maxBackoffMs } : extra.backoff,
      clock: this.host.clock,
      name: labelOf(slot.session.contextName || slot.spec, resourceTypeName(type), rec.namespace),
      initialObjects,
    });
    const id = rec.id;
    rec.subscriptions = [
      informer.addHandler({
        name: 'watch manager',
        onAdd: (obj) => this.host.dispatch(id, (h) => h.onAdd?.(id, obj)),
        onUpdate: (oldObj, newObj) => this.host.dispatch(id, (h) => h.onUpdate?.(id, oldObj, newObj)),
        onDelete: (obj, unknown) => this.host.dispatch(id, (h) => h.onDelete?.(id, obj, unknown)),
      }),
      informer.onLifecycle((event) => this.host.lifecycle(id, event)),
      informer.onListProgress(() => this.host.listProgress(id)),
      informer.onStateChange((state) => {
        this.host.publish();
        // A 404: the cache stays (F40) while discovery says whether the type moved or is gone.
        if (state.phase === 'not-found' && rec.informer === informer) this.recheck(slot, 'not-found');
        // Refused where access reviews could not answer before: ask them again (the scope was a guess).
        if (state.phase === 'forbidden' && rec.informer === informer && slot.scope?.guessed && !slot.scoping) {
          slot.session.access?.invalidate();
          this.rescope(slot);
        }
      }),
    ];
    rec.informer = informer;
    rec.optionsKey = optionsKey;
    rec.serial = ++this.serial;
    informer.start();
  }

  /** Stops an entry's informer, then reports its objects removed. The entry itself stays. */
  private async discardInformer(rec: EntryRecord, reason: string): Promise<void> {
    const informer = rec.informer;
    if (!informer) return;
    rec.informer = undefined;
    rec.optionsKey = undefined;
    await informer.stop();
    for (const s of rec.subscriptions) s.dispose();
    rec.subscriptions = [];
    const objects = informer.list();
    informer.store.clear();
    if (objects.length > 0) this.host.removed({ entryId: rec.id, objects, reason });
  }

  /** (Re)starts resolving a slot's type on its session; the result is applied through the queue. */
  startResolution(slot: ResourceSlot): void {
    stopResolving(slot);
    const transport = slot.session.transport;
    if (!transport || !this.host.running()) return;
    const ctl = new AbortController();
    slot.resolving = ctl;
    slot.wait = undefined;
    slot.since = this.host.clock.now();
    const informerOptions = this.host.options.informerOptions;
    const maxMs = this.host.config().maxBackoffMs ?? informerOptions?.backoff?.maxMs;
    resolveWithRetry(transport, slot.resource, {
      clock: this.host.clock,
      signal: ctl.signal,
      backoff: { ...informerOptions?.backoff, ...(maxMs ? { maxMs } : {}) },
      attemptTimeoutMs: informerOptions?.requestTimeoutMs,
      onWaiting: (wait) => {
        if (slot.resolving !== ctl) return;
        this.resolutionWaiting(slot, wait);
      },
    }).then(
      (type) =>
        this.host.enqueue(async () => {
          if (slot.resolving !== ctl || this.slots.get(slot.key) !== slot || !this.host.running()) return;
          slot.resolving = undefined;
          slot.wait = undefined;
          slot.type = type;
          await this.reconcileSlot(slot);
          this.host.resolved(slot.session);
          this.host.publish();
        }),
      () => undefined, // only an abort ends the loop without a type: a newer resolution or a stop owns the slot
    );
  }

  private resolutionWaiting(slot: ResourceSlot, wait: ResolutionWait): void {
    const at = this.host.clock.now();
    const state = resolutionWaitState(wait, at);
    const events = resolutionWaitEvents(wait, at);
    slot.wait = { state, message: wait.reason, kind: wait.error instanceof UnknownResourceError ? 'unknown-resource' : 'discovery' };
    for (const rec of slot.entries.values()) for (const event of events) this.host.lifecycle(rec.id, event);
    this.host.publish();
  }
}

/** Ends a slot's resolution, its recheck and its scoping, if any runs. */
function stopResolving(slot: ResourceSlot): void {
  slot.resolving?.abort();
  slot.resolving = undefined;
  slot.rechecking?.abort();
  slot.rechecking = undefined;
  slot.scoping?.abort();
  slot.scoping = undefined;
  slot.scopingKey = undefined;
}
