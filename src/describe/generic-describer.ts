import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { rec, writeAnnotations, writeMap, type Json } from './describe-format';

/** Fields the generic description leaves out: noise for people (kubectl leaves out managedFields too). */
const SKIPPED_METADATA = new Set(['name', 'namespace', 'labels', 'annotations', 'managedFields']);

/**
 * kubectl's generic describer (used for custom resources and any kind without its own): Name,
 * Namespace, Labels, Annotations, API Version, Kind, then every other top-level field as an
 * indented tree of `Title Case Key:  value`, lists item by item.
 */
export function describeGeneric(obj: KubeObject, kind: string, apiVersion: string): DescribeWriter {
  const w = new DescribeWriter();
  w.line(0, 'Name:', obj.metadata.name ?? '');
  if (obj.metadata.namespace !== undefined) w.line(0, 'Namespace:', obj.metadata.namespace);
  writeMap(w, 0, 'Labels', obj.metadata.labels);
  writeAnnotations(w, obj);
  w.line(0, 'API Version:', obj.apiVersion ?? apiVersion);
  w.line(0, 'Kind:', obj.kind ?? kind);
  const metadata = Object.fromEntries(Object.entries(rec(obj.metadata)).filter(([k]) => !SKIPPED_METADATA.has(k)));
  writeField(w, 0, 'metadata', metadata);
  for (const [key, value] of Object.entries(obj as Json)) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind') continue;
    writeField(w, 0, key, value);
  }
  return w;
}

function writeField(w: DescribeWriter, level: number, key: string, value: unknown): void {
  const title = `${smartLabel(key)}:`;
  if (Array.isArray(value)) {
    if (value.length === 0) return;
    if (value.every((v) => v === null || typeof v !== 'object')) {
      w.line(level, title);
      for (const v of value) w.line(level + 1, scalar(v));
      return;
    }
    w.line(level, title);
    for (const item of value) {
      if (item !== null && typeof item === 'object') for (const [k, v] of Object.entries(item as Json)) writeField(w, level + 1, k, v);
      else w.line(level + 1, scalar(item));
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Json);
    if (entries.length === 0) return;
    w.line(level, title);
    for (const [k, v] of entries) writeField(w, level + 1, k, v);
    return;
  }
  w.line(level, title, scalar(value));
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  return typeof v === 'string' ? v : String(v);
}

/** `creationTimestamp` -> `Creation Timestamp`, `podIP` -> `Pod IP`, as kubectl's smartLabelFor. */
export function smartLabel(key: string): string {
  if (key.includes('.') || key.includes('/') || key.includes('-') || key.includes(':')) return key;
  const words = key.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) ?? [key];
  return words.map((word) => (/^[a-z]/.test(word) ? word[0].toUpperCase() + word.slice(1) : word)).join(' ');
}
