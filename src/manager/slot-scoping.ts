import type { Clock } from '../base';
import { resourceTypeName, type TimedLifecycleEvent } from '../informer';
import { permissionScope, scopeKey, type PermissionScope, type ScopedNamespace } from './permission-scope';
import type { ResourceSlot } from './resource-slot';
import type { WatchConfig } from './watch-config';

/** What the scoping needs of the reconciler around it. */
export interface ScopingHost {
  readonly clock: Clock;
  config(): WatchConfig;
  running(): boolean;
  enqueue(op: () => Promise<void>): Promise<void>;
  publish(): void;
  lifecycle(entryId: string, event: TimedLifecycleEvent): void;
  /** The decision arrived (through the queue): bring the slot's entries in line with it. */
  decided(slot: ResourceSlot): Promise<void>;
}

/** The state an entry shows while its type's scope is being decided. */
export const CHECKING_ACCESS = 'checking what you may watch';

/**
 * Decides, per resolved slot, where its type is watched as the user's permissions allow
 * (PermissionScope), before its first watch and again when the configured namespaces or the
 * type change, on Restart, and after a 403 on a watch whose scope was a guess.
 * Invariants: at most one decision runs per slot (`slot.scoping`), its answer is applied through
 * the operation queue only while it is still the slot's current one; a slot whose session has no
 * access reviews is watched as configured.
 */
export class SlotScoping {
  constructor(private readonly host: ScopingHost) {}

  /**
   * The namespaces the slot's entries stand for now, or undefined while a decision is pending
   * (started here when none runs for the current key): the entries are then left as they are.
   */
  wanted(slot: ResourceSlot): readonly ScopedNamespace[] | undefined {
    const config = this.host.config();
    const namespaced = slot.type ? slot.type.namespaced : true;
    const configured = (namespaced && config.namespaces.length > 0 ? config.namespaces : ['']).map((namespace) => ({ namespace }));
    if (!slot.type || !slot.session.access || !slot.session.transport) return configured;
    const key = scopeKey(slot.type, namespaced ? config.namespaces : []);
    if (slot.scope?.key === key) return slot.scope.namespaces;
    if (slot.scopingKey !== key) this.start(slot, key);
    return undefined;
  }

  /** Forgets the slot's decision (and stops one running): the next reconcile decides again. */
  forget(slot: ResourceSlot): void {
    this.stop(slot);
    slot.scope = undefined;
  }

  /** Ends a decision in progress, if any. */
  stop(slot: ResourceSlot): void {
    slot.scoping?.abort();
    slot.scoping = undefined;
    slot.scopingKey = undefined;
  }

  private start(slot: ResourceSlot, key: string): void {
    this.stop(slot);
    const type = slot.type;
    const access = slot.session.access;
    const transport = slot.session.transport;
    if (!type || !access || !transport || !this.host.running()) return;
    const ctl = new AbortController();
    slot.scoping = ctl;
    slot.scopingKey = key;
    const config = this.host.config();
    permissionScope({ access, transport, type, configured: type.namespaced ? config.namespaces : [], contextNamespace: slot.session.namespace, signal: ctl.signal }).then(
      (scope) =>
        this.host.enqueue(async () => {
          if (slot.scoping !== ctl || !this.host.running()) return;
          slot.scoping = undefined;
          slot.scopingKey = undefined;
          slot.scope = scope;
          await this.host.decided(slot);
          this.announce(slot, scope);
          this.host.publish();
        }),
      () => undefined, // aborted: the slot was removed, rebound, re-keyed or stopped
    );
    this.host.publish();
  }

  /** One log line per entry when the scope is not what was configured: limited to some namespaces, or not allowed. */
  private announce(slot: ResourceSlot, scope: PermissionScope): void {
    const at = this.host.clock.now();
    const name = slot.type ? resourceTypeName(slot.type) : slot.resource;
    let told = false;
    for (const rec of slot.entries.values()) {
      if (rec.denied) this.host.lifecycle(rec.id, { type: 'warning', message: `not allowed for you: ${rec.denied}; not watched`, at });
      else if (scope.limited && !told) {
        told = true;
        const names = scope.namespaces.map((n) => n.namespace).join(', ');
        const cut = scope.truncated ? ' (the first namespaces checked only)' : '';
        this.host.lifecycle(rec.id, { type: 'warning', message: `you may not list ${name} cluster wide: watching ${names}, the namespaces you may list${cut}`, at });
      }
    }
  }
}
