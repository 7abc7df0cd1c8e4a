/**
 * kubectl-grade printing, done locally: per kind the columns `kubectl get` prints (kubectl has
 * the server print them, from pkg/printers/internalversion), custom resources from their CRD's
 * `additionalPrinterColumns`, and what a one-line tree row shows of them. VS Code-free and pure.
 */
import type { KubeObject } from '../../informer';
import { printCronJob, printJob } from './batch';
import { printConfigMap, printNamespace, printSecret } from './config';
import { printCustomResource } from './custom-resource';
import { printEvent } from './event';
import { printGeneric } from './generic';
import { printIngress, printService } from './network';
import { printNode } from './node';
import { printPod } from './pod';
import type { PrinterColumn } from './printer-columns';
import type { PrintedRow } from './printed-row';
import { printPersistentVolumeClaim } from './storage';
import { printDaemonSet, printDeployment, printReplicaSet, printStatefulSet } from './workloads';

export * from './printed-row';
export { eventLastSeen, eventCount } from './event';
export { crdPrinterColumns, columnCell, DEFAULT_COLUMNS, toJsonPathPlus, type PrinterColumn } from './printer-columns';
export { byteOrder, compareKubectl, compareEventsNewestFirst } from './object-order';

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

/** True when `kind` has a printer of its own here. */
export function hasBuiltInPrinter(kind: string | undefined): boolean {
  return kind !== undefined && Object.hasOwn(PRINTERS, kind);
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
