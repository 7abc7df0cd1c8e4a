import type { Disposable } from '../base';
import type { Informer, InformerState, ResourceType } from '../informer';
import type { ContextSession } from './context-session';
import type { PermissionScope } from './permission-scope';
import type { EntryErrorKind } from './watch-entry';

/**
 * One configured (context, resource) pair: it resolves the resource type on the context's
 * session, then holds one entry per namespace (a single '' entry for a cluster-scoped type or
 * when all namespaces are watched).
 * Invariants: `type` is only set while `session` is the session it was resolved on; at most one
 * resolution runs at a time (`resolving`), and at most one recheck of a resolved type
 * (`rechecking`); `wait` describes the last failed resolution attempt.
 */
export interface ResourceSlot {
  readonly key: string;
  readonly spec: string;
  readonly resource: string;
  session: ContextSession;
  type?: ResourceType;
  resolving?: AbortController;
  /** Set while discovery is asked again about the resolved type (after a 404, a CRD change or a Restart). */
  rechecking?: AbortController;
  wait?: { state: InformerState; message: string; kind: Extract<EntryErrorKind, 'unknown-resource' | 'discovery'> };
  /** Where the resolved type is watched, as the user's permissions allow (see SlotScoping). */
  scope?: PermissionScope;
  /** Set while that is being decided, with the key it is decided for. */
  scoping?: AbortController;
  scopingKey?: string;
  /** When resolution (re)started: the `since` of the connecting state shown meanwhile. */
  since: number;
  readonly entries: Map<string, EntryRecord>;
}

/**
 * One (context, resource, namespace). Invariant: `informer`, when set, is running, was built
 * with `optionsKey`, and `subscriptions` are its handler and listeners.
 */
export interface EntryRecord {
  readonly id: string;
  readonly slot: ResourceSlot;
  /** '' = all namespaces or a cluster-scoped type. */
  readonly namespace: string;
  informer?: Informer;
  optionsKey?: string;
  /** Set when the user may not list and watch here (the words why): no informer runs, and nothing is stale. */
  denied?: string;
  /** Distinguishes successive informers of one entry. */
  serial: number;
  subscriptions: Disposable[];
}

export function slotKey(spec: string, resource: string): string {
  return JSON.stringify([spec, resource]);
}

export function entryId(spec: string, resource: string, namespace: string): string {
  return JSON.stringify([spec, resource, namespace]);
}
