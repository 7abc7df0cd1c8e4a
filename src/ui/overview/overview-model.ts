import type { KubeObject } from '../../informer';
import type { WatchEntry } from '../../manager';
import { formatMebibytes, formatMilliCores, noValueText, nodeReading, type ClusterMetrics } from '../../metrics';
import { presentContext } from '../tree/view-presentation';
import { describeWatchState } from '../watch-state-text';
import type { KindCount, NodeLine, OverviewSnapshot, WarningLine } from './overview-messages';

/** Warnings this recent are counted. */
export const WARNING_WINDOW_MS = 60 * 60 * 1000;
/** Warnings listed (the most recent first); the count covers them all. */
const WARNINGS_LISTED = 20;

export interface OverviewInputs {
  /** The context spec ("" = current-context) and the name it is shown by. */
  readonly context: string;
  readonly title: string;
  /** The watches of that context. */
  readonly entries: readonly WatchEntry[];
  /** Its metrics (node usage); undefined when metrics are not wanted. */
  readonly metrics?: ClusterMetrics;
  readonly now: number;
}

function timeOf(e: KubeObject): number {
  const o = e as KubeObject & { lastTimestamp?: string; eventTime?: string; deprecatedLastTimestamp?: string; series?: { lastObservedTime?: string } };
  const text = o.series?.lastObservedTime ?? o.lastTimestamp ?? o.deprecatedLastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp;
  const t = text ? Date.parse(text) : NaN;
  return Number.isFinite(t) ? t : 0;
}

function warningOf(e: KubeObject): WarningLine {
  const o = e as KubeObject & { reason?: string; message?: string; note?: string; count?: number; involvedObject?: { kind?: string; name?: string; namespace?: string }; regarding?: { kind?: string; name?: string; namespace?: string }; series?: { count?: number }; deprecatedCount?: number };
  const about = o.involvedObject ?? o.regarding ?? {};
  const ns = about.namespace ?? e.metadata.namespace;
  return {
    at: timeOf(e),
    reason: o.reason ?? '',
    object: `${about.kind ?? '?'} ${ns ? `${ns}/` : ''}${about.name ?? ''}`,
    message: o.message ?? o.note ?? '',
    count: o.count ?? o.series?.count ?? o.deprecatedCount ?? 1,
  };
}

function noteOf(entry: WatchEntry): string | undefined {
  if (entry.errorKind === 'not-allowed' || entry.state.phase === 'forbidden') return 'forbidden';
  if (!entry.informer) return entry.state.phase === 'not-found' ? 'not served' : entry.state.phase;
  if (!entry.state.synced) return 'listing…';
  if (entry.state.phase !== 'watching') return 'stale';
  return undefined;
}

/**
 * The first page of a cluster (issue 30, item 4), from what the watches already hold: objects per
 * kind (each a link to its table), warning events of the last hour (when Events are watched, else
 * it says they are not), the nodes with their usage, and the watches' health in the tree's words.
 * Pure: the same inputs give the same page.
 */
export function overviewSnapshot(inputs: OverviewInputs): OverviewSnapshot {
  const { entries, now } = inputs;
  const byKind = new Map<string, { group: string; kind: string; resource: string; count: number; listed: boolean; note?: string }>();
  const objectsOf = (kind: string, group: string) => entries.filter((e) => e.type?.kind === kind && e.type.group === group).flatMap((e) => e.informer?.list() ?? []);
  for (const e of entries) {
    if (!e.type) continue;
    const key = `${e.type.group}/${e.type.kind}`;
    const resource = e.type.group ? `${e.type.resource}.${e.type.group}` : e.type.resource;
    const k = byKind.get(key) ?? { group: e.type.group, kind: e.type.kind, resource, count: 0, listed: true };
    const note = noteOf(e);
    if (e.informer && e.state.synced) k.count += e.informer.list().length;
    else k.listed = false;
    k.note = k.note ?? note;
    byKind.set(key, k);
  }
  const counts: KindCount[] = [...byKind.values()]
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.group.localeCompare(b.group))
    .map((k) => ({ group: k.group, kind: k.kind, resource: k.resource, ...(k.listed ? { count: k.count } : {}), ...(k.note ? { note: k.note } : {}) }));

  const eventEntries = entries.filter((e) => e.type?.kind === 'Event');
  let warnings: WarningLine[] | undefined;
  let eventsNote: string | undefined;
  if (eventEntries.length === 0) eventsNote = 'Events are not watched: add `events` to kubeWatch.resources to see warnings here.';
  else {
    const all = [...objectsOf('Event', ''), ...objectsOf('Event', 'events.k8s.io')].filter((e) => (e as { type?: string }).type === 'Warning');
    warnings = all.map(warningOf).filter((w) => now - w.at <= WARNING_WINDOW_MS).sort((a, b) => b.at - a.at);
    if (eventEntries.some((e) => !e.state.synced)) eventsNote = 'Events are still being listed.';
  }

  const nodeEntries = entries.filter((e) => e.type?.kind === 'Node' && e.type.group === '');
  let nodes: NodeLine[] | undefined;
  let nodesNote: string | undefined;
  if (nodeEntries.length === 0) nodesNote = 'Nodes are not watched: add `nodes` to kubeWatch.resources to see them here.';
  else nodes = objectsOf('Node', '').sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')).map((n) => nodeLine(n, inputs.metrics, now));

  const health = presentContext(inputs.title, entries, now, false);
  const tones = entries.map((e) => describeWatchState(e, now).tone);
  const healthTone = tones.includes('error') ? 'error' : tones.includes('warning') ? 'warning' : 'ok';
  return {
    type: 'snapshot',
    context: inputs.context,
    title: inputs.title,
    now,
    health: health.description ?? '',
    healthTone: entries.length === 0 ? 'neutral' : healthTone,
    counts,
    ...(warnings ? { warnings: warnings.slice(0, WARNINGS_LISTED), warningCount: warnings.length } : {}),
    ...(eventsNote ? { eventsNote } : {}),
    ...(nodes ? { nodes } : {}),
    ...(nodesNote ? { nodesNote } : {}),
  };
}

function nodeLine(node: KubeObject, metrics: ClusterMetrics | undefined, now: number): NodeLine {
  const conditions = ((node.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? []);
  const ready = conditions.find((c) => c.type === 'Ready');
  const readyText = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  const name = node.metadata.name ?? '';
  if (!metrics) return { name, ready: readyText };
  const r = nodeReading(metrics, node, now);
  if (r.kind !== 'value' && r.kind !== 'stale') return { name, ready: readyText, note: noValueText(r) };
  const f = r.figures;
  return {
    name,
    ready: readyText,
    cpu: `${formatMilliCores(f.cpu)}${f.cpuPercent !== undefined ? ` (${f.cpuPercent}%)` : ''}`,
    mem: `${formatMebibytes(f.mem)}${f.memPercent !== undefined ? ` (${f.memPercent}%)` : ''}`,
    ...(f.cpuPercent !== undefined ? { cpuPercent: f.cpuPercent } : {}),
    ...(f.memPercent !== undefined ? { memPercent: f.memPercent } : {}),
    ...(r.kind === 'stale' ? { note: noValueText(r) } : {}),
  };
}
