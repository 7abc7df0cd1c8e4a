import { AbortedError, ApiError } from '../base';

/**
 * Whether the metrics API answered for one request target (a namespace, every namespace, the
 * nodes). Each way of having no value is its own state, so that a cell can say which.
 */
export type MetricsAvailability =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'ok' }
  /** 404 on the metrics group: metrics-server (or another metrics API) is not installed. */
  | { readonly kind: 'no-api' }
  /** 403: RBAC refuses `list` of metrics.k8s.io for this user (here). */
  | { readonly kind: 'forbidden'; readonly message: string }
  /** 503 (the APIService is registered but its server does not answer), a network failure, anything else. */
  | { readonly kind: 'unavailable'; readonly message: string };

/** What a failed metrics request means; undefined for an abort (the view went away: nothing to say). */
export function availabilityOfError(err: unknown): MetricsAvailability | undefined {
  if (err instanceof AbortedError) return undefined;
  if (err instanceof ApiError) {
    if (err.code === 404) return { kind: 'no-api' };
    if (err.code === 403) return { kind: 'forbidden', message: err.message };
    if (err.code === 503) return { kind: 'unavailable', message: 'the metrics API does not answer (metrics-server unavailable)' };
    return { kind: 'unavailable', message: `the metrics API answered ${err.code}: ${err.message}` };
  }
  return { kind: 'unavailable', message: err instanceof Error ? err.message : String(err) };
}

/** The words for a state without values, said once and calmly (never a bare N/A). */
export function availabilityText(a: MetricsAvailability): string {
  switch (a.kind) {
    case 'waiting':
      return 'waiting for the first sample';
    case 'ok':
      return 'metrics available';
    case 'no-api':
      return 'no metrics API on this cluster (metrics-server not installed)';
    case 'forbidden':
      return 'forbidden: you may not read metrics.k8s.io here';
    case 'unavailable':
      return `metrics unavailable: ${a.message}`;
  }
}
