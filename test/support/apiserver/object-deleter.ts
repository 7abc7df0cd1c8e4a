/**
 * Deletes as kube-apiserver 1.34 performs them (transcript actions-1.34.md), with the parts of a
 * cluster a delete sets going: a kubelet that ends a bound Pod's grace period, a garbage
 * collector for dependents (background, foreground, orphan) and a namespace controller that
 * empties a terminating namespace. Used by DELETE (delete-writes.ts) and by evictions.
 *
 * - Preconditions (uid, resourceVersion) fail with the 409 the server words.
 * - A Pod bound to a node with a grace period > 0 gets `deletionTimestamp` (now + grace) and
 *   `deletionGracePeriodSeconds` (MODIFIED); it is deleted when the grace period ends (the
 *   kubelet; `podTerminationSeconds` caps how long that takes here). Any other Pod (unbound,
 *   grace 0, finished) is marked (MODIFIED) and deleted (DELETED) at once; the answer carries the
 *   DELETED resourceVersion, as the real server's does.
 * - Foreground and Orphan mark the object (`foregroundDeletion`/`orphan` finalizer, MODIFIED);
 *   the collector deletes (or frees) the dependents, then the object. Background deletes the
 *   object at once and its dependents right after.
 * - A namespace turns Terminating (MODIFIED); its objects and then it go a simulated second later.
 * Later steps run on the server's timers, so `close()` ends them.
 */
import type { KubeObjectJson, ResourceDefinition } from './types';
import type { WriteServerParts } from './writes';
import { objectKey } from './store';
import { qualifiedName } from './resources';
import { atResourceVersion, kubeTime, withTypeMeta } from './object-meta';
import { failure, type StatusJson } from './status';

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteRequest {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export type DeleteOutcome = { status: 200; body: KubeObjectJson } | { status: number; body: StatusJson };

export interface DeleterParts {
  /** Milliseconds per simulated second. */
  readonly timeScale: number;
  /** The server's timers (cleared on close). */
  readonly timers: Set<NodeJS.Timeout>;
}

export class ObjectDeleter {
  /** The longest a bound Pod's grace period takes here, in simulated seconds (default: as long as it says). */
  podTerminationSeconds = Number.POSITIVE_INFINITY;

  constructor(private readonly parts: DeleterParts) {}

  /** Deletes one object of `def`; what the server answers. */
  delete(server: WriteServerParts, def: ResourceDefinition, namespace: string | undefined, name: string, request: DeleteRequest = {}): DeleteOutcome {
    const q = qualifiedName(def);
    const key = objectKey(def.namespaced ? namespace : undefined, name);
    const current = server.store.peek(q, key);
    if (!current) {
      const details = def.group ? { name, group: def.group, kind: def.resource } : { name, kind: def.resource };
      return { status: 404, body: failure(404, 'NotFound', `${def.group ? `${def.resource}.${def.group}` : def.resource} "${name}" not found`, details) };
    }
    const refused = preconditionFailure(def, current, request.preconditions);
    if (refused) return { status: 409, body: refused };
    if (request.dryRun) return { status: 200, body: withTypeMeta(def, current) };
    if (current.metadata.deletionTimestamp) {
      // Already going: only a shorter grace period for a Pod changes anything.
      if (def.kind === 'Pod' && request.gracePeriodSeconds === 0) {
        this.mark(server, def, key, 0);
        return { status: 200, body: this.deleteNow(server, def, key) };
      }
      return { status: 200, body: withTypeMeta(def, current) };
    }
    if (def.group === '' && def.resource === 'namespaces') return { status: 200, body: this.terminateNamespace(server, def, key) };
    if (def.group === '' && def.resource === 'pods') return { status: 200, body: this.deletePod(server, def, key, current, request.gracePeriodSeconds) };
    switch (request.propagationPolicy ?? 'Background') {
      case 'Foreground': {
        const marked = this.mark(server, def, key, 0, 'foregroundDeletion');
        this.later(0, () => {
          this.collectDependents(server, current.metadata.uid);
          this.deleteIfPresent(server, def, key);
        });
        return { status: 200, body: marked };
      }
      case 'Orphan': {
        const marked = this.mark(server, def, key, 0, 'orphan');
        this.later(0, () => {
          this.orphanDependents(server, current.metadata.uid);
          this.deleteIfPresent(server, def, key);
        });
        return { status: 200, body: marked };
      }
      case 'Background': {
        const gone = this.deleteNow(server, def, key);
        this.later(0, () => this.collectDependents(server, current.metadata.uid));
        return { status: 200, body: gone };
      }
    }
  }

  /** The grace a Pod's delete gets: 0 when it is not bound to a node or has finished (pod strategy's CheckGracefulDelete). */
  private deletePod(server: WriteServerParts, def: ResourceDefinition, key: string, pod: KubeObjectJson, asked: number | undefined): KubeObjectJson {
    const spec = (pod.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    let grace = asked ?? spec.terminationGracePeriodSeconds ?? 30;
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') grace = 0;
    const marked = this.mark(server, def, key, grace);
    if (grace === 0) return this.deleteNow(server, def, key);
    this.later(Math.min(grace, this.podTerminationSeconds) * this.parts.timeScale, () => this.deleteIfPresent(server, def, key));
    return marked;
  }

  private terminateNamespace(server: WriteServerParts, def: ResourceDefinition, key: string): KubeObjectJson {
    const current = server.store.peek(qualifiedName(def), key)!;
    const rv = server.store.nextRv();
    const next = structuredClone(current);
    next.metadata.deletionTimestamp = kubeTime();
    next.metadata.resourceVersion = String(rv);
    next.status = { ...((next.status as object | undefined) ?? {}), phase: 'Terminating' };
    server.store.commit({ rv, resource: qualifiedName(def), key, type: 'MODIFIED', object: next, prev: current });
    const namespace = current.metadata.name;
    this.later(this.parts.timeScale, () => {
      for (const other of server.registry.all()) {
        if (!other.namespaced) continue;
        for (const [k, obj] of [...server.store.currentObjects(qualifiedName(other))]) {
          if (obj.metadata.namespace === namespace) this.deleteIfPresent(server, other, k);
        }
      }
      this.deleteIfPresent(server, def, key);
    });
    return withTypeMeta(def, next);
  }

  /** Sets deletionTimestamp (now + grace) and deletionGracePeriodSeconds, and a finalizer when given (MODIFIED). */
  private mark(server: WriteServerParts, def: ResourceDefinition, key: string, graceSeconds: number, finalizer?: string): KubeObjectJson {
    const q = qualifiedName(def);
    const current = server.store.peek(q, key)!;
    const rv = server.store.nextRv();
    const next = structuredClone(current);
    next.metadata.deletionTimestamp = kubeTime(Date.now() + graceSeconds * 1000);
    next.metadata.deletionGracePeriodSeconds = graceSeconds;
    if (finalizer) next.metadata.finalizers = [...((next.metadata.finalizers as string[] | undefined) ?? []), finalizer];
    next.metadata.resourceVersion = String(rv);
    server.store.commit({ rv, resource: q, key, type: 'MODIFIED', object: next, prev: current });
    return withTypeMeta(def, next);
  }

  /** Removes the object now (DELETED); the answer is it at the deletion's resourceVersion. */
  private deleteNow(server: WriteServerParts, def: ResourceDefinition, key: string): KubeObjectJson {
    const q = qualifiedName(def);
    const current = server.store.peek(q, key)!;
    const rv = server.store.nextRv();
    const object = atResourceVersion(current, rv);
    server.store.commit({ rv, resource: q, key, type: 'DELETED', object, prev: current });
    return withTypeMeta(def, object);
  }

  private deleteIfPresent(server: WriteServerParts, def: ResourceDefinition, key: string): void {
    if (server.store.peek(qualifiedName(def), key)) this.deleteNow(server, def, key);
  }

  /** The garbage collector: every object owned by `uid` goes (their own dependents after them). */
  private collectDependents(server: WriteServerParts, uid: string | undefined): void {
    if (!uid) return;
    for (const { def, key, obj } of dependentsOf(server, uid)) {
      if (def.group === '' && def.resource === 'pods') this.deletePod(server, def, key, obj, undefined);
      else {
        this.deleteIfPresent(server, def, key);
        this.collectDependents(server, obj.metadata.uid);
      }
    }
  }

  /** Orphan: the dependents lose their owner reference to `uid` (MODIFIED each). */
  private orphanDependents(server: WriteServerParts, uid: string | undefined): void {
    if (!uid) return;
    for (const { def, key, obj } of dependentsOf(server, uid)) {
      const q = qualifiedName(def);
      const rv = server.store.nextRv();
      const next = structuredClone(obj);
      const refs = ((next.metadata.ownerReferences as { uid?: string }[] | undefined) ?? []).filter((r) => r.uid !== uid);
      if (refs.length > 0) next.metadata.ownerReferences = refs;
      else delete next.metadata.ownerReferences;
      next.metadata.resourceVersion = String(rv);
      server.store.commit({ rv, resource: q, key, type: 'MODIFIED', object: next, prev: obj });
    }
  }

  private later(ms: number, run: () => void): void {
    const t = setTimeout(() => {
      this.parts.timers.delete(t);
      try {
        run();
      } catch {
        // a step of a simulated controller: the server goes on
      }
    }, ms);
    t.unref();
    this.parts.timers.add(t);
  }
}

function dependentsOf(server: WriteServerParts, uid: string): { def: ResourceDefinition; key: string; obj: KubeObjectJson }[] {
  const out: { def: ResourceDefinition; key: string; obj: KubeObjectJson }[] = [];
  for (const def of server.registry.all()) {
    for (const [key, obj] of server.store.currentObjects(qualifiedName(def))) {
      if (((obj.metadata.ownerReferences as { uid?: string }[] | undefined) ?? []).some((r) => r.uid === uid)) out.push({ def, key, obj });
    }
  }
  return out;
}

/** The 409 of a failed delete precondition, in the words of the real server. */
function preconditionFailure(def: ResourceDefinition, obj: KubeObjectJson, p: DeleteRequest['preconditions']): StatusJson | undefined {
  if (!p) return undefined;
  const name = obj.metadata.name;
  const details = def.group ? { name, group: def.group, kind: def.kind } : { name, kind: def.kind };
  if (p.uid !== undefined && p.uid !== obj.metadata.uid) {
    return failure(409, 'Conflict', `Operation cannot be fulfilled on ${def.kind} "${name}": the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`, details);
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== obj.metadata.resourceVersion) {
    return failure(409, 'Conflict', `Operation cannot be fulfilled on ${def.kind} "${name}": the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`, details);
  }
  return undefined;
}
