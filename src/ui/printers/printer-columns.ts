import { JSONPath } from 'jsonpath-plus';
import type { KubeObject } from '../../informer';
import { humanDuration } from '../age';
import { array, int, record, records, str, time } from './cells';

/** One `additionalPrinterColumns` entry of a CustomResourceDefinition version. */
export interface PrinterColumn {
  name: string;
  /** integer, number, string, boolean, date (OpenAPI types). */
  type: string;
  format?: string;
  description?: string;
  /** 0: shown by `kubectl get`; more: `-o wide` only. */
  priority: number;
  /** A kubectl JSONPath without braces, such as `.status.conditions[?(@.type=="Ready")].status`. */
  jsonPath: string;
}

/** The columns kubectl shows for a CRD version that declares none: Age. */
export const DEFAULT_COLUMNS: readonly PrinterColumn[] = [{ name: 'Age', type: 'date', priority: 0, jsonPath: '.metadata.creationTimestamp' }];

/**
 * The printer columns of version `version` of a CustomResourceDefinition object
 * (apiextensions.k8s.io/v1: `spec.versions[].additionalPrinterColumns`); DEFAULT_COLUMNS when
 * it declares none; undefined when the CRD has no such version.
 */
export function crdPrinterColumns(crd: KubeObject, version: string): readonly PrinterColumn[] | undefined {
  const v = records(record(crd.spec).versions).find((x) => x.name === version);
  if (!v) return undefined;
  const columns = records(v.additionalPrinterColumns)
    .filter((c) => str(c.name) && str(c.jsonPath))
    .map((c) => ({
      name: str(c.name),
      type: str(c.type) || 'string',
      ...(str(c.format) ? { format: str(c.format) } : {}),
      ...(str(c.description) ? { description: str(c.description) } : {}),
      priority: int(c.priority),
      jsonPath: str(c.jsonPath),
    }));
  return columns.length > 0 ? columns : DEFAULT_COLUMNS;
}

/**
 * kubectl's JSONPath (`.spec.replicas`, `.items[0].name`, `[?(@.type=="Ready")]`, with or without
 * surrounding braces) as jsonpath-plus reads it (`$.spec.replicas`).
 */
export function toJsonPathPlus(path: string): string {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim();
  if (p.startsWith('$')) return p;
  if (p.startsWith('.') || p.startsWith('[')) return `$${p}`;
  return `$.${p}`;
}

/**
 * The cell of `column` for `obj`, as the API server's table converter prints a custom resource:
 * the first value found; dates as the time since; `<none>` when nothing is found (kubectl prints
 * an absent cell so). A malformed path yields `<invalid>`, never an exception.
 */
export function columnCell(obj: KubeObject, column: PrinterColumn, now: number): string {
  let values: unknown[];
  try {
    values = array(JSONPath({ path: toJsonPathPlus(column.jsonPath), json: obj as object, wrap: true }));
  } catch {
    return '<invalid>';
  }
  const value = values[0];
  if (value === undefined || value === null) return '<none>';
  switch (column.type) {
    case 'date': {
      const t = time(value);
      return t === undefined ? String(value) : humanDuration(now - t);
    }
    case 'integer':
    case 'number':
    case 'boolean':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
