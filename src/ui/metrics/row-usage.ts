import type { Clock, Disposable } from '../../base';
import { formatMebibytes, formatMilliCores, freshnessText, noValueText, nodeReading, podReading, type MetricsHub, type UsageReading } from '../../metrics';
import type { NodePresentation } from '../tree/node-presentation';
import type { ObjectRow, RowDecorationChange, RowDecorator } from '../tree/row-decorator';
import { TouchedShowings } from './touched-showings';

export interface RowUsageOptions {
  readonly hub: MetricsHub;
  readonly clock: Clock;
  /** A watch entry's context spec ("" = current-context) and the kind it watches; undefined when it has none now. */
  readonly entryOf: (entryId: string) => { readonly context: string; readonly kind: string | undefined } | undefined;
}

/** Figures of a pod or a node. */
type RowFigures = { cpu: number; mem: number; cpuOfRequest?: number; memOfLimit?: number; cpuPercent?: number; memPercent?: number };

/** A row drawn lately, and what its usage read then (it is drawn again only when that changes). */
type Drawn = Pick<ObjectRow, 'entryId' | 'namespace' | 'name'> & { at: number; object: ObjectRow['object']; shown: string };

/**
 * CPU and memory on the tree's pod and node rows: `· 12m 64Mi` after the row's description, and
 * in its tooltip the figures against requests and limits (or allocatable), the sample's age and
 * window, or why there is none. Fetched only for rows the tree draws: drawing a pod row holds its
 * namespace's metrics (a node row, the nodes') for a few intervals; a collapsed namespace is no
 * longer drawn and is let go. A row without a value adds nothing to its description (the tooltip
 * says why), so a cluster without metrics-server reads as before.
 */
export class RowUsageDecorator implements RowDecorator, Disposable {
  private readonly showings: TouchedShowings;
  private readonly drawn = new Map<string, Map<string, Drawn>>();
  private readonly listeners = new Set<(change: RowDecorationChange) => void>();
  private readonly subscription: Disposable;

  constructor(private readonly options: RowUsageOptions) {
    this.showings = new TouchedShowings(options.hub, options.clock, () => 3 * options.hub.cluster('').intervalMs);
    this.subscription = options.hub.onDidChange(({ context }) => this.redraw(context));
  }

  decorate(row: ObjectRow, presentation: NodePresentation): NodePresentation {
    const reading = this.reading(row);
    if (!reading || (reading.kind !== 'value' && reading.kind !== 'stale')) return presentation;
    const f = reading.figures;
    const usage = `${formatMilliCores(f.cpu)} ${formatMebibytes(f.mem)}${reading.kind === 'stale' ? ' (stale)' : ''}`;
    return { ...presentation, description: presentation.description ? `${presentation.description} · ${usage}` : usage };
  }

  tooltip(row: ObjectRow): string | undefined {
    const reading = this.reading(row, false);
    if (!reading) return undefined;
    const now = this.options.clock.now();
    if (reading.kind !== 'value' && reading.kind !== 'stale') return `Usage: ${noValueText(reading)}`;
    const f = reading.figures;
    const isNode = this.options.entryOf(row.entryId)?.kind === 'Node';
    const cpuPct = isNode ? pct(f.cpuPercent, 'allocatable') : pct(f.cpuOfRequest, 'request');
    const memPct = isNode ? pct(f.memPercent, 'allocatable') : pct(f.memOfLimit, 'limit');
    const stale = reading.kind === 'stale' ? `${noValueText(reading)}; ` : '';
    return `Usage: CPU ${formatMilliCores(f.cpu)} (${cpuPct}), memory ${formatMebibytes(f.mem)} (${memPct}); ${stale}${freshnessText(reading.sample, now)}`;
  }

  onDidChange(listener: (change: RowDecorationChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** How many namespaces (and node lists) the tree's rows hold now. */
  get heldShowings(): number {
    return this.showings.size;
  }

  dispose(): void {
    this.subscription.dispose();
    this.showings.dispose();
    this.listeners.clear();
    this.drawn.clear();
  }

  private reading(row: ObjectRow, draw = true): UsageReading<RowFigures> | undefined {
    const entry = this.options.entryOf(row.entryId);
    const kind = entry?.kind ?? row.object.kind;
    if (!entry || (kind !== 'Pod' && kind !== 'Node')) return undefined;
    const context = entry.context;
    const now = this.options.clock.now();
    if (draw) {
      this.showings.touch(context, kind === 'Node' ? undefined : row.namespace);
      let rows = this.drawn.get(context);
      if (!rows) this.drawn.set(context, (rows = new Map()));
      const reading = this.readingNow(context, kind, row.object, now);
      rows.set(`${row.entryId}\u0000${row.namespace}\u0000${row.name}`, { entryId: row.entryId, namespace: row.namespace, name: row.name, at: now, object: row.object, shown: shownText(reading) });
      return reading;
    }
    return this.readingNow(context, kind, row.object, now);
  }

  private readingNow(context: string, kind: string, object: ObjectRow['object'], now: number): UsageReading<RowFigures> {
    const metrics = this.options.hub.cluster(context);
    return kind === 'Node' ? nodeReading(metrics, object, now) : podReading(metrics, object, now);
  }

  /**
   * New samples: the rows drawn lately on that context whose usage reads differently now are
   * drawn again (the others are not on screen; a row that reads the same keeps its open hover).
   */
  private redraw(context: string): void {
    const rows = this.drawn.get(context);
    if (!rows) return;
    const now = this.options.clock.now();
    const cutoff = now - 3 * this.options.hub.cluster(context).intervalMs;
    const changed: Drawn[] = [];
    for (const [k, r] of [...rows]) {
      if (r.at < cutoff) rows.delete(k);
      else if (shownText(this.readingNow(context, this.options.entryOf(r.entryId)?.kind ?? 'Pod', r.object, now)) !== r.shown) changed.push(r);
    }
    if (changed.length === 0) return;
    const change: RowDecorationChange = { rows: changed.map(({ entryId, namespace, name }) => ({ entryId, namespace, name })) };
    for (const l of this.listeners) l(change);
  }
}

/** What a row shows of a reading: its usage text, or the state that explains why there is none. */
function shownText(r: UsageReading<RowFigures>): string {
  if (r.kind === 'value' || r.kind === 'stale') return `${r.kind} ${formatMilliCores(r.figures.cpu)} ${formatMebibytes(r.figures.mem)}`;
  return noValueText(r) ?? r.kind;
}

function pct(p: number | undefined, of: string): string {
  return p === undefined ? `no ${of} set` : `${p}% of ${of}`;
}

/** Two decorators on one tree: the first's decoration, then the second's; tooltips joined. */
export function chainDecorators(first: RowDecorator, second: RowDecorator): RowDecorator {
  return {
    decorate: (row, p) => second.decorate(row, first.decorate(row, p)),
    tooltip: (row) => {
      const parts = [first.tooltip(row), second.tooltip(row)].filter((t): t is string => !!t);
      return parts.length ? parts.join('\n\n') : undefined;
    },
    onDidChange: (listener) => {
      const a = first.onDidChange(listener);
      const b = second.onDidChange(listener);
      return { dispose: () => (a.dispose(), b.dispose()) };
    },
  };
}
