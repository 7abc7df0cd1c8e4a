import type { KubeObject } from '../../informer';

/** A filter on a resource node's rows (issue 23, part 4): text, and for Events, warnings only. */
export interface NodeFilter {
  /** Matched, without regard to case, against the name, namespace, labels and, for Events, reason, object and message. */
  readonly text?: string;
  /** Events only: those of type Warning. */
  readonly warningsOnly?: boolean;
}

/** Whether a filter hides anything at all. */
export function isActive(filter: NodeFilter | undefined): filter is NodeFilter {
  return filter !== undefined && (Boolean(filter.text?.trim()) || filter.warningsOnly === true);
}

/** What a filter's node says while it is in force: `warnings only`, `"web"`, `warnings only, "back"`. */
export function filterText(filter: NodeFilter): string {
  const parts: string[] = [];
  if (filter.warningsOnly) parts.push('warnings only');
  const text = filter.text?.trim();
  if (text) parts.push(`"${text}"`);
  return parts.join(', ');
}

/** The label of a filtered resource node: `events (warnings only)`. */
export function filteredLabel(label: string, filter: NodeFilter | undefined): string {
  return isActive(filter) ? `${label} (${filterText(filter)})` : label;
}

/** Whether `obj` passes `filter`. */
export function matchesFilter(obj: KubeObject, filter: NodeFilter): boolean {
  const e = obj as { type?: string; reason?: string; message?: string; note?: string; involvedObject?: { kind?: string; name?: string }; regarding?: { kind?: string; name?: string } };
  if (filter.warningsOnly && e.type !== 'Warning') return false;
  const text = filter.text?.trim().toLowerCase();
  if (!text) return true;
  const m = obj.metadata;
  const about = e.involvedObject ?? e.regarding;
  const fields = [m.name, m.namespace, e.reason, e.message, e.note, about && `${about.kind ?? ''}/${about.name ?? ''}`, ...Object.entries(m.labels ?? {}).map(([k, v]) => `${k}=${v}`)];
  return fields.some((f) => typeof f === 'string' && f.toLowerCase().includes(text));
}
