/**
 * The fake Kubernetes API server for tests. See fake-api-server.ts for behaviour and
 * the shared fixtures/apiserver folder for the real-server transcripts it mirrors.
 */
export { FakeApiServer } from './fake-api-server';
export type {
  Fault,
  FaultHandle,
  FaultMatch,
  FaultVerb,
  FakeApiServerOptions,
  KubeObjectJson,
  KubeconfigOptions,
  RequestRecord,
  RequestVerb,
  ResourceDefinition,
  ServerVersion,
  StatusCause,
  WatchEventJson,
} from './types';
export type { StatusJson } from './status';
export { encodeContinue, decodeContinue } from './continue-token';
export { PodLogs, rfc3339Nano } from './pod-logs';
export { ENDPOINT_SLICES, ENDPOINTS, EVENTS_V1 } from './resources';
export type { HistoryEvent as ObjectChange } from './store';
export type { WriteCall, WriteHandler, WriteServerParts } from './writes';
export { ACTION_TYPES, CRON_JOBS, DAEMON_SETS, JOBS, NODES, POD_DISRUPTION_BUDGETS, REPLICA_SETS, STATEFUL_SETS } from './action-resources';
export type { PolicyRule } from './access-policy';
export { MetricsApi, METRICS_GROUP, NODE_METRICS, POD_METRICS, type MetricsMode } from './metrics-api';
