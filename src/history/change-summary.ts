import type { KubeObject } from '../informer';
import { HEARTBEAT_FIELDS, isHeartbeatPath, isIgnoredPath } from './noise-fields';
import { own } from './reverse-patch';

/** One field that differs between two versions. */
export interface FieldChange {
  /** For people: `spec.replicas`, `metadata.labels.app`, `status.conditions[Ready].status`. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  /** The values, when both are short scalars that may be shown (never for Secret data). */
  before?: string;
  after?: string;
}

/** What changed from one version to the next. */
export interface ChangeSummary {
  /** Changes worth reading, in the object's field order. */
  changes: FieldChange[];
  /** Heartbeat timestamps that moved (left out of `text` unless nothing else changed). */
  heartbeats: FieldChange[];
  /** Only heartbeat timestamps (and bookkeeping) changed. */
  heartbeatOnly: boolean;
  /** One line: `spec.replicas 3 → 5, status.availableReplicas 3 → 5`. */
  text: string;
}

export interface SummaryOptions {
  /** Field names under `status` treated as heartbeats; default HEARTBEAT_FIELDS. */
  heartbeatFields?: ReadonlySet<string>;
  /** Report heartbeat changes with the others instead of leaving them out. */
  includeHeartbeats?: boolean;
  /** Paths named in `text` before "and N more"; default 4. */
  maxPaths?: number;
}

/** Longest scalar shown as `before → after`. */
const MAX_VALUE_CHARS = 24;

/** Fields whose values are never shown in a summary (the YAML masks them too). */
const SECRET_FIELDS = new Set(['data', 'stringData']);

/**
 * The fields that differ from `prev` to `cur`, as paths people read. Arrays whose elements all
 * carry a unique `name` (containers, env, ports, volumes) or `type` (conditions) are matched by
 * it, so `status.conditions[Ready].status` names the condition, and an inserted container does
 * not make every later one look changed. Bookkeeping paths (`metadata.resourceVersion`,
 * `managedFields`, `generation`) are never reported; heartbeat timestamps only when nothing else
 * changed. Pure; reads both objects without changing them.
 */
export function summarizeChange(prev: KubeObject, cur: KubeObject, options: SummaryOptions = {}): ChangeSummary {
  const heartbeatFields = options.heartbeatFields ?? HEARTBEAT_FIELDS;
  const secret = (cur.kind ?? prev.kind) === 'Secret';
  const changes: FieldChange[] = [];
  const heartbeats: FieldChange[] = [];
  const keyPath: (string | number)[] = [];
  const shown: string[] = [];

  const report = (kind: FieldChange['kind'], before: unknown, after: unknown) => {
    if (isIgnoredPath(keyPath)) return;
    const change: FieldChange = { path: shown.join(''), kind };
    const mayShow = !(secret && SECRET_FIELDS.has(String(keyPath[0]))) && !isObjectCopyAnnotation(keyPath);
    if (mayShow && kind === 'changed' && isShortScalar(before) && isShortScalar(after)) {
      change.before = scalarText(before);
      change.after = scalarText(after);
    }
    if (!options.includeHeartbeats && isHeartbeatPath(keyPath, heartbeatFields)) heartbeats.push(change);
    else changes.push(change);
  };

  const walk = (a: unknown, b: unknown): void => {
    if (a === b) return;
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(b)) {
        if (b[key] === undefined) continue;
        enter(key, shown.length === 0 ? key : keySegment(key));
        const before = own(a, key);
        if (before === undefined) report('added', undefined, b[key]);
        else walk(before, b[key]);
        leave();
      }
      for (const key of Object.keys(a)) {
        if (a[key] === undefined || own(b, key) !== undefined) continue;
        enter(key, shown.length === 0 ? key : keySegment(key));
        report('removed', a[key], undefined);
        leave();
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const field = identityField(a, b);
      if (field) {
        const before = new Map(a.map((el, i) => [(el as Record<string, string>)[field], i]));
        const after = new Set<string>();
        b.forEach((el, i) => {
          const id = (el as Record<string, string>)[field];
          after.add(id);
          const j = before.get(id);
          enter(i, `[${id}]`);
          if (j === undefined) report('added', undefined, el);
          else walk(a[j], el);
          leave();
        });
        a.forEach((el, j) => {
          const id = (el as Record<string, string>)[field];
          if (after.has(id)) return;
          enter(j, `[${id}]`);
          report('removed', el, undefined);
          leave();
        });
        return;
      }
      if (a.length === b.length) {
        for (let i = 0; i < a.length; i++) {
          enter(i, `[${i}]`);
          walk(a[i], b[i]);
          leave();
        }
        return;
      }
    }
    report('changed', a, b);
  };

  function enter(key: string | number, text: string): void {
    keyPath.push(key);
    shown.push(text);
  }
  function leave(): void {
    keyPath.pop();
    shown.pop();
  }

  walk(prev, cur);
  const heartbeatOnly = changes.length === 0 && heartbeats.length > 0;
  return { changes, heartbeats, heartbeatOnly, text: summaryText(changes, heartbeats, options.maxPaths ?? 4) };
}

/** The one-line text of a summary. */
function summaryText(changes: FieldChange[], heartbeats: FieldChange[], maxPaths: number): string {
  if (changes.length === 0) {
    if (heartbeats.length === 0) return 'no field changed (resourceVersion only)';
    const names = [...new Set(heartbeats.map((h) => h.path.replace(/^.*[.\]]/, '')))];
    return `heartbeat only: ${names.join(', ')}`;
  }
  const parts = changes.slice(0, maxPaths).map(changeText);
  const rest = changes.length - parts.length;
  return parts.join(', ') + (rest > 0 ? ` and ${rest} more` : '');
}

export function changeText(c: FieldChange): string {
  if (c.kind === 'added') return `+${c.path}`;
  if (c.kind === 'removed') return `-${c.path}`;
  return c.before !== undefined && c.after !== undefined ? `${c.path} ${c.before} → ${c.after}` : c.path;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `name` or `type` when every element of both arrays is an object with a unique string value for it. */
function identityField(a: unknown[], b: unknown[]): 'name' | 'type' | undefined {
  for (const field of ['name', 'type'] as const) {
    if (uniqueBy(a, field) && uniqueBy(b, field)) return field;
  }
  return undefined;
}

function uniqueBy(list: unknown[], field: string): boolean {
  if (list.length === 0) return true;
  const seen = new Set<string>();
  for (const el of list) {
    if (!isRecord(el)) return false;
    const id = el[field];
    if (typeof id !== 'string' || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

/** `.key`, or `[key]` when the key is not a plain identifier (`metadata.labels[app.kubernetes.io/name]`). */
function keySegment(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `.${key}` : `[${key}]`;
}

function isShortScalar(v: unknown): boolean {
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return true;
  return typeof v === 'string' && v.length <= MAX_VALUE_CHARS && !/[\n\r]/.test(v);
}

function scalarText(v: unknown): string {
  return typeof v === 'string' ? (v === '' ? '""' : v) : String(v);
}

/** The last-applied annotation holds a copy of the whole object (Secret values included). */
function isObjectCopyAnnotation(path: readonly (string | number)[]): boolean {
  return path[0] === 'metadata' && path[1] === 'annotations' && path[2] === 'kubectl.kubernetes.io/last-applied-configuration';
}
