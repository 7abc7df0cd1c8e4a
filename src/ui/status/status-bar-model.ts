import { catchUpText, type CatchUp } from '../../health/catch-up';
import type { WatchEntry } from '../../manager';
import { entryHealth, severityRank, worse, type EntryCondition, type EntryHealth, type Severity } from './entry-health';
import { escapeMarkdown, markdownTable } from './markdown-text';
import { rowStateText } from './row-state-text';
import type { Trouble } from './trouble-tracker';

/** Codicons the indicator uses. */
export type StatusIcon = 'eye' | 'sync' | 'error' | 'lock' | 'stop-circle' | 'eye-closed' | 'history' | 'circle-slash';

/** What the status bar item shows. Plain data: the VS Code adapter maps it onto a StatusBarItem. */
export interface StatusBarModel {
  /** The item's text with its icon, e.g. `$(eye) 12/12`, `$(sync~spin) 11/12`. */
  readonly text: string;
  readonly icon: StatusIcon;
  readonly spinning: boolean;
  /** 'warning' / 'error' map to the theme's statusBarItem.warningBackground / errorBackground. */
  readonly background: Severity;
  /** Markdown with theme icons (`$(eye)`) and `command:` links to COMMAND_LINKS only. */
  readonly tooltip: string;
  /** For screen readers: the text without icon syntax, in words. */
  readonly ariaLabel: string;
  /**
   * True while the display changes with time alone (countdowns, "failing for", the 30 s
   * thresholds): the adapter then refreshes every second, and only then.
   */
  readonly ticking: boolean;
  /** Entries watching, and all entries. */
  readonly watching: number;
  readonly total: number;
}

export interface StatusBarInput {
  readonly entries: readonly WatchEntry[];
  /** Milliseconds on the manager's clock. */
  readonly now: number;
  /** The entry's run of failures (TroubleTracker.get). */
  readonly trouble: (entryId: string) => Trouble | undefined;
  /** Watching is paused by the user: the manager is stopped on purpose. */
  readonly paused?: boolean;
  /** What the view shows, one line each (`Context: kind-dev`, `Namespaces: all`, `Label selector: app=web`): the tooltip says it under its headline. */
  readonly scope?: readonly string[];
  /** After a resume, until every watch confirmed it is current: the indicator says it is catching up. */
  readonly catchUp?: CatchUp;
}

/** The commands the tooltip links to; the adapter trusts exactly these. */
export const COMMAND_LINKS = ['kubeWatch.showLog', 'kubeWatch.inspectResourceVersion', 'kubeWatch.showHealth'] as const;

/** Rows shown in the tooltip table before the rest is summed up in one line. */
export const MAX_TOOLTIP_ROWS = 20;

/**
 * The status bar indicator from the entries and the time.
 *
 * - `$(eye) 12/12` when every informer is watching;
 * - `$(sync~spin) 11/12` while some connect, list, relist or wait to reconnect;
 * - `$(error) 11/12` when one needs attention (see `entryHealth`: refused or unreachable for more
 *   than 30 s, or a kubeconfig/context that cannot be used);
 * - background: the worst entry severity (warning after 30 s of failures, error as above);
 * - `$(history) catching up after 59 s away` after a resume (the machine slept, the process was
 *   stopped) until every watch confirmed it is current, unless something needs attention;
 * - `$(stop-circle) Paused` while paused; `$(eye-closed) No watches` with nothing configured;
 *   `$(error) Kubeconfig` (or `Context`) when no entry can run for that reason.
 *
 * Invariant: the counts are `watching/total` over every entry, including the failing ones, but
 * for the types the user may not watch at all (access reviews said so before any watch): those
 * are named in the tooltip, never counted, never red (red is for what may heal).
 */
export function statusBarModel(input: StatusBarInput): StatusBarModel {
  const { entries, now } = input;
  const backSince = serverBackSince(entries);
  const all = entries.map((e) => entryHealth(e, input.trouble(e.id), now, backSince.get(e.context)));
  const healths = all.filter((h) => h.condition !== 'not-allowed');
  const notAllowed = all.filter((h) => h.condition === 'not-allowed').map((h) => h.entry.label);
  const total = healths.length;
  const watching = healths.filter((h) => h.condition === 'watching').length;

  if (input.paused) {
    return {
      text: '$(stop-circle) Paused',
      icon: 'stop-circle',
      spinning: false,
      background: 'none',
      tooltip: `**Kube Watch** · watching is paused\n\nNothing is connected to a cluster, and the view shows no live objects. Resume watching to reconnect.`,
      ariaLabel: 'Kube Watch: watching is paused',
      ticking: false,
      watching,
      total,
    };
  }
  if (total === 0 && notAllowed.length > 0) {
    return {
      text: '$(circle-slash) Not allowed',
      icon: 'circle-slash',
      spinning: false,
      background: 'none',
      tooltip: `**Kube Watch** · nothing is watched\n\nYou may not list and watch any of the configured types: ${escapeMarkdown(notAllowed.join(', '))}.`,
      ariaLabel: 'Kube Watch: you may not watch any of the configured types',
      ticking: false,
      watching,
      total,
    };
  }
  if (total === 0) {
    return {
      text: '$(eye-closed) No watches',
      icon: 'eye-closed',
      spinning: false,
      background: 'none',
      tooltip: '**Kube Watch** · nothing is watched\n\nNo resource type is configured to watch (setting `kubeWatch.resources`).',
      ariaLabel: 'Kube Watch: nothing is watched',
      ticking: false,
      watching,
      total,
    };
  }

  const background = healths.reduce<Severity>((s, h) => worse(s, h.severity), 'none');
  const ticking = healths.some((h) => h.trouble !== undefined || (h.condition !== 'watching' && h.entry.state.nextRetryAt !== undefined));
  const tooltip = tooltipMarkdown(healths, now, watching, total, input.scope ?? [], notAllowed);

  if (healths.every((h) => h.condition === 'misconfigured')) {
    const kind = healths.every((h) => h.entry.errorKind === 'context') ? 'Context' : 'Kubeconfig';
    return {
      text: `$(error) ${kind}`,
      icon: 'error',
      spinning: false,
      background: 'error',
      tooltip,
      ariaLabel: `Kube Watch: the ${kind.toLowerCase()} cannot be used: ${healths[0].concern ?? ''}`,
      ticking,
      watching,
      total,
    };
  }

  if (input.catchUp && background === 'none') {
    const text = catchUpText(input.catchUp.awayMs);
    const confirmed = input.catchUp.total - input.catchUp.pending;
    return {
      text: `$(history) ${text}`,
      icon: 'history',
      spinning: false,
      background,
      tooltip: tooltip.replace(/^(\*\*Kube Watch\*\* · [^\n]*)/, `$1\n\n$(history) ${text}: ${confirmed} of ${input.catchUp.total} watches have shown they are current (a bookmark, an event or a list since the resume)`),
      ariaLabel: `Kube Watch: ${text}, ${confirmed} of ${input.catchUp.total} watches current, ${watching} of ${total} watches live`,
      ticking,
      watching,
      total,
    };
  }

  const settling = healths.some((h) => (h.condition === 'starting' || h.condition === 'failing' || h.condition === 'stopped') && !isRefused(h));
  const refused = healths.some(isRefused);
  const icon: StatusIcon = background === 'error' ? 'error' : settling ? 'sync' : refused ? 'lock' : 'eye';
  const spinning = icon === 'sync';
  const counts = `${watching}/${total}`;
  const failing = healths.filter((h) => h.condition === 'failing' || h.condition === 'misconfigured').length;
  const words = [`${watching} of ${total} watches live`];
  if (failing > 0) words.push(`${failing} failing`);
  if (refused && icon === 'lock') words.push('refused by the server');
  // A kubeconfig that cannot be re-read, with every watch live on the one read before, warns without "failing".
  const reloadOnly = background === 'warning' && !healths.some((h) => h.severity === 'warning' && h.condition === 'failing');
  if (background !== 'none') words.push(background === 'error' ? 'needs attention' : reloadOnly ? 'the kubeconfig cannot be read, still watching with the configuration read before' : 'has been failing for a while');
  return {
    text: `$(${icon}${spinning ? '~spin' : ''}) ${counts}`,
    icon,
    spinning,
    background,
    tooltip,
    ariaLabel: `Kube Watch: ${words.join(', ')}`,
    ticking,
    watching,
    total,
  };
}

/**
 * A watch the server refused (401, 403, 404): retrying will not fix it, so it must not spin like
 * a reconnect; the indicator shows a lock instead.
 */
function isRefused(h: EntryHealth): boolean {
  const phase = h.entry.state.phase;
  if (phase === 'unauthorized' || phase === 'credentials-failed' || phase === 'forbidden' || phase === 'not-found') return true;
  const last = h.trouble?.phase;
  return h.condition === 'failing' && (last === 'unauthorized' || last === 'credentials-failed' || last === 'forbidden' || last === 'not-found');
}

/**
 * Per context, since when the server answers again: the latest moment a watch of that context
 * entered `watching`, when one is watching. A sibling still unreachable is then only waiting for
 * its retry (see `entryHealth`).
 */
function serverBackSince(entries: readonly WatchEntry[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entries) {
    if (e.state.phase !== 'watching') continue;
    const at = out.get(e.context);
    if (at === undefined || e.state.since > at) out.set(e.context, e.state.since);
  }
  return out;
}

const conditionOrder: Record<EntryCondition, number> = { misconfigured: 0, failing: 1, starting: 2, stopped: 3, watching: 4, 'not-allowed': 5 };

/** Worst first: severity, then condition, then label. */
function compareHealth(a: EntryHealth, b: EntryHealth): number {
  return (
    severityRank(b.severity) - severityRank(a.severity) ||
    conditionOrder[a.condition] - conditionOrder[b.condition] ||
    a.entry.label.localeCompare(b.entry.label)
  );
}

/** The theme icon of an entry in the tooltip table and the watch list: `$(eye)`, `$(sync)`, `$(warning)`, `$(error)`. */
export function healthIcon(h: EntryHealth): string {
  if (h.severity === 'error') return '$(error)';
  if (h.severity === 'warning') return '$(warning)';
  switch (h.condition) {
    case 'watching':
      return '$(eye)';
    case 'stopped':
    case 'not-allowed':
      return '$(circle-slash)';
    case 'failing':
      return isRefused(h) ? '$(lock)' : '$(sync)';
    default:
      return '$(sync)';
  }
}

/**
 * The tooltip: a headline, the concerns behind a coloured background, and a table of the
 * informers with their state and last seen resourceVersion, worst first.
 */
function tooltipMarkdown(healths: readonly EntryHealth[], now: number, watching: number, total: number, scope: readonly string[], notAllowed: readonly string[]): string {
  const sorted = [...healths].sort(compareHealth);
  const parts: string[] = [`**Kube Watch** · ${watching} of ${total} watching`];
  if (scope.length > 0) parts.push(scope.map((line) => escapeMarkdown(line)).join('  \n'));
  if (notAllowed.length > 0) parts.push(`$(circle-slash) Not allowed for you, so not watched: ${escapeMarkdown(notAllowed.join(', '))}`);
  const concerns = sorted.filter((h) => h.severity !== 'none' && h.concern);
  if (concerns.length > 0) {
    const shown = concerns.slice(0, 3).map((h) => `${healthIcon(h)} ${escapeMarkdown(h.entry.label)}: ${escapeMarkdown(h.concern ?? '')}`);
    if (concerns.length > 3) shown.push(`and ${concerns.length - 3} more`);
    parts.push(shown.join('  \n'));
  }
  const rows = sorted
    .slice(0, MAX_TOOLTIP_ROWS)
    .map((h) => [`${healthIcon(h)} ${escapeMarkdown(h.entry.label)}`, escapeMarkdown(rowStateText(h, now)), escapeMarkdown(h.entry.stats.resourceVersion ?? '—')]);
  parts.push(markdownTable(['Watch', 'State', 'resourceVersion'], ['left', 'left', 'right'], rows));
  const rest = sorted.slice(MAX_TOOLTIP_ROWS);
  if (rest.length > 0) {
    const restWatching = rest.filter((h) => h.condition === 'watching').length;
    parts.push(`…and ${rest.length} more (${restWatching} watching)`);
  }
  parts.push('[Show Watch Health](command:kubeWatch.showHealth) · [Show Watch Log](command:kubeWatch.showLog) · [Inspect Resource Versions](command:kubeWatch.inspectResourceVersion) · click for the watches');
  return parts.join('\n\n');
}
