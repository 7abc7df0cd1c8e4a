import type { StreamingListMode } from '../informer/streaming-list-memory';

/**
 * What to watch: the manager runs one informer per (context, resource, namespace) of this
 * configuration, all with the same selectors and timeouts.
 */
export interface WatchConfig {
  /** Context names; empty = the kubeconfig's current-context (followed when it changes). */
  contexts: string[];
  /** Resource types as kubectl spells them: `pods`, `po`, `deployments.apps`, `widgets.v1.example.com`. */
  resources: string[];
  /** Namespaces; empty = all namespaces. Ignored for cluster-scoped types. */
  namespaces: string[];
  labelSelector?: string;
  fieldSelector?: string;
  /** A fixed watch timeoutSeconds; omitted = the informer's randomised default. */
  timeoutSeconds?: number;
  /** Cap of the reconnect backoff (and the slow retry of refusals); omitted = the informer's 30 s. */
  maxBackoffMs?: number;
  /** A kubeconfig file or KUBECONFIG-style list; omitted = KUBECONFIG, else ~/.kube/config. */
  kubeconfigPath?: string;
  /** How lists are made (streaming list with fallback, streaming only, LIST only); omitted = 'auto'. */
  streamingList?: StreamingListMode;
}

/** A configuration with blanks trimmed, empties and duplicates dropped (first occurrence kept). */
export function normalizeConfig(config: WatchConfig): WatchConfig {
  return {
    contexts: unique(config.contexts),
    resources: unique(config.resources),
    namespaces: unique(config.namespaces),
    labelSelector: config.labelSelector?.trim() || undefined,
    fieldSelector: config.fieldSelector?.trim() || undefined,
    timeoutSeconds: config.timeoutSeconds && config.timeoutSeconds > 0 ? config.timeoutSeconds : undefined,
    maxBackoffMs: config.maxBackoffMs && config.maxBackoffMs > 0 ? config.maxBackoffMs : undefined,
    kubeconfigPath: config.kubeconfigPath?.trim() || undefined,
    streamingList: config.streamingList,
  };
}

/**
 * The part of a configuration that every informer is built from besides its own
 * (context, resource, namespace). Two informers with the same triple and the same options key
 * are interchangeable; a different key means the informer must be rebuilt.
 */
export function informerOptionsKey(config: WatchConfig): string {
  return JSON.stringify([config.labelSelector ?? '', config.fieldSelector ?? '', config.timeoutSeconds ?? 0, config.maxBackoffMs ?? 0, config.streamingList ?? 'auto']);
}

function unique(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).map((v) => v.trim()).filter((v) => v !== ''))];
}
