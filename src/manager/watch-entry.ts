import type { Informer, InformerState, InformerStats, KubeObject, ResourceType } from '../informer';

/** Why an entry has no informer. */
export type EntryErrorKind =
  /** The kubeconfig cannot be read or parsed. */
  | 'kubeconfig'
  /** The context does not exist in the kubeconfig, or names an undefined cluster or user. */
  | 'context'
  /** Discovery found no watchable type by that spelling (retried slowly, F22). */
  | 'unknown-resource'
  /** Discovery itself failed (network, refusal, server error); retried with backoff. */
  | 'discovery'
  /** The user may not list and watch the type here (access reviews said so before any watch): not watched, quietly. */
  | 'not-allowed';

/** The state reason of an entry the user may not watch (errorKind 'not-allowed'). */
export const NOT_ALLOWED = 'not allowed for you';

/**
 * One configured watch: a (context, resource, namespace) and the informer behind it, or the
 * reason there is none yet. A snapshot: call `WatchManager.entries()` again after
 * `onDidChangeEntries` fires.
 */
export interface WatchEntry {
  /**
   * Opaque and stable while the configuration names this triple. The current-context is part
   * of it as "", not by name, so an entry follows the current-context when it switches.
   */
  readonly id: string;
  /** The context's name, as configured or as the current-context resolved to; '' when unknown. */
  readonly context: string;
  /** The resource as configured (kubectl spelling). */
  readonly resource: string;
  /** The resolved type, once discovery found it. */
  readonly type?: ResourceType;
  /** '' = all namespaces, and always '' for a cluster-scoped type. */
  readonly namespace: string;
  /**
   * Absent while resolving or when resolution failed. Owned by the manager: observe it (state,
   * stats, store, resourceVersion), never start, stop or restart it directly.
   */
  readonly informer?: Informer;
  /** The informer's state, or the resolution's (connecting, not-found, unreachable, ...). */
  readonly state: InformerState;
  readonly stats: InformerStats;
  /** One line, never a credential. Also set on a running informer when a kubeconfig reload failed. */
  readonly error?: string;
  readonly errorKind?: EntryErrorKind;
  /** How the context's cluster connection talks: 'h2' or 'http/1.1', once known. */
  readonly protocol?: 'h2' | 'http/1.1';
  /**
   * True when this namespace is watched because the user may list the type here but not cluster
   * wide: the namespaces the user may list stand in for "all namespaces".
   */
  readonly limitedByAccess?: boolean;
  /** A label for logs and trees, e.g. `kind-dev/deployments.apps in default`. */
  readonly label: string;
}

/** What changed in the entry list. Ids only; read the entries from `entries()`. */
export interface EntriesChange {
  added: string[];
  removed: string[];
  /** State, error, type or informer changed. */
  changed: string[];
}

/** Cache changes of every informer, tagged with the entry they belong to. */
export interface EntryHandler {
  onAdd?(entryId: string, obj: KubeObject): void;
  onUpdate?(entryId: string, oldObj: KubeObject, newObj: KubeObject): void;
  onDelete?(entryId: string, obj: KubeObject, finalStateUnknown: boolean): void;
}

/**
 * An informer was discarded (stopped for good, or replaced by one against another cluster or
 * with other selectors): the objects it held are gone from the manager's view.
 */
export interface ObjectsRemoved {
  entryId: string;
  objects: KubeObject[];
  reason: string;
}
