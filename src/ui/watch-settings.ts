import type { WatchConfig } from '../manager';
import { restrictedSetting, type SettingsSource } from './trusted-settings';
import { STREAMING_LIST_MODES } from '../informer/streaming-list-memory';

/** The `kubeWatch.*` settings as the user wrote them. */
export interface KubeWatchSettings {
  /** Already filtered for workspace trust by the caller: only a value the user may rely on. */
  kubeconfigPath: string;
  contexts: string[];
  resources: string[];
  namespaces: string[];
  labelSelector: string;
  watchTimeoutSeconds: number;
  maxBackoffSeconds: number;
  /** 'auto' | 'always' | 'never'. */
  streamingList: string;
}

/**
 * Reads `kubeWatch.*` from `source` (the `kubeWatch` section). The kubeconfig path and the
 * contexts are restricted settings (W13): kubeconfig exec plugins run programs and a context picks
 * where writes go, so in an untrusted workspace only the user's own (global) values count.
 */
export function readWatchSettings(source: SettingsSource, trusted: boolean): KubeWatchSettings {
  return {
    kubeconfigPath: restrictedSetting(source, 'kubeconfigPath', '', trusted),
    contexts: restrictedSetting<string[]>(source, 'contexts', [], trusted),
    resources: source.get<string[]>('resources', []),
    namespaces: source.get<string[]>('namespaces', []),
    labelSelector: source.get<string>('labelSelector', ''),
    watchTimeoutSeconds: source.get<number>('watchTimeoutSeconds', 0),
    maxBackoffSeconds: source.get<number>('maxBackoffSeconds', 30),
    streamingList: source.get<string>('streamingList', 'auto'),
  };
}

export const defaultResources = ['pods', 'deployments.apps', 'services', 'configmaps', 'events'];

/**
 * Settings to the manager's configuration. Values of the wrong type (a hand-edited
 * settings.json) fall back to the defaults rather than failing.
 */
export function toWatchConfig(s: Partial<KubeWatchSettings>): WatchConfig {
  return {
    kubeconfigPath: typeof s.kubeconfigPath === 'string' && s.kubeconfigPath.trim() ? s.kubeconfigPath.trim() : undefined,
    contexts: strings(s.contexts, []),
    resources: strings(s.resources, defaultResources),
    namespaces: strings(s.namespaces, []),
    labelSelector: typeof s.labelSelector === 'string' ? s.labelSelector.trim() || undefined : undefined,
    timeoutSeconds: positive(s.watchTimeoutSeconds),
    maxBackoffMs: positive(s.maxBackoffSeconds) !== undefined ? (s.maxBackoffSeconds as number) * 1000 : undefined,
    streamingList: STREAMING_LIST_MODES.find((m) => m === s.streamingList),
  };
}

function strings(v: unknown, fallback: string[]): string[] {
  if (!Array.isArray(v)) return fallback;
  return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}
