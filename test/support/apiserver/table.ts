/**
 * Server-side printing: a GET or LIST whose Accept asks for
 * `application/json;as=Table;v=v1;g=meta.k8s.io` (what `kubectl get` sends) is answered with a
 * meta.k8s.io Table, as kube-apiserver does (a watch, `kubectl get -w`: each event's object is a
 * one-row Table, the first with the column definitions): the columns `kubectl get` prints for the built-in
 * kinds (Pods: NAME READY STATUS RESTARTS AGE, wide: IP NODE NOMINATED NODE READINESS GATES;
 * Deployments: NAME READY UP-TO-DATE AVAILABLE AGE, ...), a custom resource's CRD printer
 * columns, NAME AGE for the rest. The cells come from the extension's kubectl-grade printers
 * (src/ui/printers), whose wide columns get priority 1.
 *
 * Column names are kubectl's headers (NAME, UP-TO-DATE), where the real server sends Name and
 * Up-to-date: kubectl prints them upper-cased either way. Every cell is a string.
 * Each row carries the object as `includeObject` says: `Metadata` (the default) a
 * PartialObjectMetadata, `Object` the whole object, `None` nothing.
 */
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../../src/informer';
import { crdPrinterColumns, printObject, printerKind, type PrinterColumn } from '../../../src/ui/printers';
import type { KubeObjectJson, ResourceDefinition } from './types';

/** The Table version an Accept header asks for (`v1` or `v1beta1`), or undefined when it wants objects. */
export function tableVersionWanted(req: IncomingMessage): 'v1' | 'v1beta1' | undefined {
  for (const range of String(req.headers.accept ?? '').split(',')) {
    const params = new Map(
      range
        .split(';')
        .slice(1)
        .map((p) => p.trim().split('=') as [string, string]),
    );
    if (params.get('as') !== 'Table' || params.get('g') !== 'meta.k8s.io') continue;
    const v = params.get('v');
    if (v === 'v1' || v === 'v1beta1') return v;
  }
  return undefined;
}

export interface TableInput {
  def: ResourceDefinition;
  objects: KubeObjectJson[];
  /** The list's metadata (resourceVersion, continue), or a single object's resourceVersion. */
  metadata: Record<string, unknown>;
  version: 'v1' | 'v1beta1';
  includeObject: string | undefined;
  /** The CustomResourceDefinition that defines `def`, when it is a custom resource. */
  crd?: KubeObjectJson;
  /** A watch event after the first: no column definitions (null), as the real server sends them. */
  noHeaders?: boolean;
  now?: number;
}

export function toTable(input: TableInput): Record<string, unknown> {
  const now = input.now ?? Date.now();
  const crdColumns: readonly PrinterColumn[] | undefined = input.crd ? crdPrinterColumns(input.crd as unknown as KubeObject, input.def.version) : undefined;
  const kind = printerKind({ kind: input.def.kind, group: input.def.group });
  const printed = input.objects.map((o) => printObject(o as unknown as KubeObject, kind, now, crdColumns));
  const sample = printed[0] ?? printObject({ metadata: { name: '' } } as KubeObject, kind, now, crdColumns);
  const columnDefinitions = sample.columns.map((header, i) => {
    const name = kind === 'Service' && header === 'PORTS' ? 'PORT(S)' : header;
    const declared = crdColumns?.find((c) => c.name.toUpperCase() === name.toUpperCase());
    return { name, type: declared?.type ?? 'string', format: name === 'NAME' ? 'name' : (declared?.format ?? ''), description: declared?.description ?? '', priority: i < sample.wideFrom ? 0 : 1 };
  });
  const rows = input.objects.map((o, i) => {
    const row: Record<string, unknown> = { cells: printed[i].cells };
    const object = rowObject(o, input.includeObject);
    if (object) row.object = object;
    return row;
  });
  return { kind: 'Table', apiVersion: `meta.k8s.io/${input.version}`, metadata: input.metadata, columnDefinitions: input.noHeaders ? null : columnDefinitions, rows };
}

function rowObject(obj: KubeObjectJson, includeObject: string | undefined): unknown {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}
