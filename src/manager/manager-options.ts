import type { Clock } from '../base';
import type { HealthCheckTiming } from '../connection/h2/session-health-check';
import type { ExecInteraction } from '../connection/credentials/exec-interaction';
import type { ClusterRegistry } from '../connection/registry/cluster-registry';
import type { TransportFactory } from '../connection/transport/transport-factory';
import type { InformerOptions } from '../informer';

/** Informer settings the configuration does not carry, applied to every informer. */
export type ExtraInformerOptions = Partial<
  Pick<
    InformerOptions,
    'pageSize' | 'minWatchTimeoutSeconds' | 'noDataGraceMs' | 'requestTimeoutMs' | 'maxRetryAfterMs' | 'backoff' | 'transform' | 'streamingList' | 'watchListProgressMs' | 'listProgressMs'
  >
>;

export interface WatchManagerOptions {
  /** Time for every informer, resolution retry and debounce; default the system clock. */
  clock?: Clock;
  /** Builds one transport per context; default KubeConfigTransport, sharing clusters through `clusterRegistry`. */
  transportFactory?: TransportFactory;
  /**
   * Shares reachability and wake detection among the contexts of one cluster; default a
   * registry of the manager's own (its wake detector runs while any transport is in use).
   */
  clusterRegistry?: ClusterRegistry;
  /** The HTTP/2 PING health check of the default transports; default read-idle 15 s, PING timeout 10 s. */
  healthCheck?: Partial<HealthCheckTiming>;
  informerOptions?: ExtraInformerOptions;
  /** Quiet time after a kubeconfig file changes before it is re-read; default 250 ms of wall time. */
  kubeconfigDebounceMs?: number;
  /** The editor's proxy (VS Code `http.proxy`), used where HTTPS_PROXY / HTTP_PROXY name none. */
  editorProxy?: string;
  /** The environment exec credential plugins inherit; default process.env. */
  execEnv?: NodeJS.ProcessEnv;
  /** Where exec plugins that may log in (`interactiveMode` IfAvailable, Always) meet the user: a VS Code terminal. */
  execInteraction?: ExecInteraction;
  /**
   * After discovery first lists a watched type in no version, how long before it is asked again;
   * only a second such answer removes the type's objects (F30, F40). Default 10 s.
   */
  confirmGoneMs?: number;
}
