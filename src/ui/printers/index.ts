/**
 * kubectl-grade printing, done locally: per kind the columns `kubectl get` prints (kubectl has
 * the server print them, from pkg/printers/internalversion), custom resources from their CRD's
 * `additionalPrinterColumns`, and what a one-line tree row shows of them. VS Code-free and pure.
 *
 * The description's fields, in priority order (a narrow side bar cuts from the right, so the
 * status comes first and is the last thing cut; the tooltip has the whole row):
 *
 * | kind | description |
 * |---|---|
 * | Pod | STATUS READY · restarts (last one's age) · AGE |
 * | Deployment | [Stuck/Progressing/Paused/ReplicaFailure/Terminating] READY ready · UP-TO-DATE · AVAILABLE · AGE |
 * | ReplicaSet | READY/DESIRED ready · CURRENT · AGE |
 * | StatefulSet | READY ready · AGE |
 * | DaemonSet | READY/DESIRED ready · UP-TO-DATE · AVAILABLE · AGE |
 * | Job | STATUS COMPLETIONS · DURATION · AGE |
 * | CronJob | [Suspended] · SCHEDULE · ACTIVE · LAST SCHEDULE · AGE |
 * | Service | TYPE CLUSTER-IP · [EXTERNAL-IP] · PORTS · AGE |
 * | Ingress | ADDRESS · HOSTS · CLASS · PORTS · AGE |
 * | Node | STATUS · ROLES · VERSION · AGE |
 * | PersistentVolumeClaim | STATUS · CAPACITY · ACCESS MODES · STORAGECLASS · AGE |
 * | ConfigMap, Secret | [TYPE] · DATA keys · AGE |
 * | Namespace | STATUS · AGE |
 * | Event (labelled by REASON) | TYPE ×COUNT · LAST SEEN · OBJECT · MESSAGE |
 * | custom resource | status-like columns (Status, Ready, Phase, ...) · other columns · dates as ages |
 * | anything else | Ready condition or phase · AGE |
 */
import type { KubeObject } from '../../informer';
import { printCronJob, printJob } from './batch';
import { printConfigMap, printNamespace, printSecret } from './config';
import { printCustomResource } from './custom-resource';
import { printEvent } from './event';
import { printGeneric } from './generic';
import { printIngress, printService } from './network';
import { printNode } from './node';
import { podCells, printPod } from './pod';
import type { PrinterColumn } from './printer-columns';
import type { PrintedRow } from './printed-row';
import { printPersistentVolumeClaim } from './storage';
import { printDaemonSet, printDeployment, printReplicaSet, printStatefulSet } from './workloads';

export * from './printed-row';
export { eventLastSeen, eventCount } from './event';
export { crdPrinterColumns, columnCell, DEFAULT_COLUMNS, toJsonPathPlus, type PrinterColumn } from './printer-columns';
export { byteOrder, compareEventsNewestFirst } from './object-order';

type KindPrinter = (obj: KubeObject, now: number) => PrintedRow;

/** Built-in kinds by name. Kinds of the core and apps groups are unique enough to key by kind alone. */
const PRINTERS: Record<string, KindPrinter> = {
  Pod: printPod,
  Deployment: printDeployment,
  ReplicaSet: printReplicaSet,
  StatefulSet: printStatefulSet,
  DaemonSet: printDaemonSet,
  Job: printJob,
  CronJob: printCronJob,
  Service: printService,
  Ingress: printIngress,
  Node: printNode,
  PersistentVolumeClaim: printPersistentVolumeClaim,
  ConfigMap: printConfigMap,
  Secret: printSecret,
  Event: printEvent,
  Namespace: printNamespace,
};

/** The API groups that serve each built-in kind ('' is the core group). */
const BUILT_IN_GROUPS: Record<string, readonly string[]> = {
  Pod: [''],
  Service: [''],
  Node: [''],
  PersistentVolumeClaim: [''],
  ConfigMap: [''],
  Secret: [''],
  Namespace: [''],
  Event: ['', 'events.k8s.io'],
  Deployment: ['apps', 'extensions'],
  ReplicaSet: ['apps', 'extensions'],
  StatefulSet: ['apps'],
  DaemonSet: ['apps', 'extensions'],
  Job: ['batch'],
  CronJob: ['batch'],
  Ingress: ['networking.k8s.io', 'extensions'],
};

/**
 * The kind to print objects of a resource type with: `kind` for Kubernetes' own types, and
 * `<kind>.<group>` for another group's kind of the same name (a Knative Service is no core
 * Service), which prints generically unless its CRD's columns are known.
 */
export function printerKind(type: { kind: string; group: string }): string {
  const groups = Object.hasOwn(BUILT_IN_GROUPS, type.kind) ? BUILT_IN_GROUPS[type.kind] : undefined;
  return !groups || groups.includes(type.group) ? type.kind : `${type.kind}.${type.group}`;
}

/**
 * The kubectl row of `obj`. `kind` comes from the resource type (list items may lack their own);
 * `columns`, for a custom resource, its CRD's printer columns, which take precedence (a CRD's
 * kind may repeat a built-in one); undefined when unknown or unreadable: then NAME and AGE. Never throws on malformed objects.
 */
export function printObject(obj: KubeObject, kind: string | undefined, now: number, columns?: readonly PrinterColumn[]): PrintedRow {
  if (columns) return printCustomResource(obj, kind, columns, now);
  const printer = kind !== undefined && Object.hasOwn(PRINTERS, kind) ? PRINTERS[kind] : undefined;
  return printer ? printer(obj, now) : printGeneric(obj, kind, now);
}

/** `printObject(…).cells` alone, sooner where a printer can skip the rest (pods: a table of 100,000 reads only cells). */
export function printCells(obj: KubeObject, kind: string | undefined, now: number, columns?: readonly PrinterColumn[]): string[] {
  return kind === 'Pod' && !columns ? podCells(obj, now) : printObject(obj, kind, now, columns).cells;
}
