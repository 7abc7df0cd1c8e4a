import * as vscode from 'vscode';
import type { Clock } from '../../base';
import { DEFAULT_EVENTS_MAX_BYTES, EventsFeeds, WarningPins, type EventSubject, type EventsFeedsSource, type WarningNotice } from '../../events';
import type { ResourceType } from '../../informer';
import { subjectFilter, warningCount } from '../../ui/events';
import { parseDescribeUri } from '../describe-documents';
import { createEventsPanel, type EventsPanel } from './events-panel';

export const SHOW_EVENTS_COMMAND = 'kubeWatch.showEvents';
export const PIN_WARNINGS_COMMAND = 'kubeWatch.pinForWarnings';
export const UNPIN_WARNINGS_COMMAND = 'kubeWatch.unpinForWarnings';

/** What the events commands read of the manager (a WatchManager is one). */
export interface EventsManager extends EventsFeedsSource {
  contextSpecOf(id: string): string | undefined;
  entry(id: string): { context: string; type?: ResourceType } | undefined;
}

/** The registered Events view, feeds and pins (exposed for the extension-host tests). */
export interface EventsRegistration extends vscode.Disposable {
  readonly feeds: EventsFeeds;
  readonly panel: EventsPanel;
  readonly pins: WarningPins;
  /** The tree's Events row: its description for a context ("3 warnings"), and when to draw it again. */
  readonly rows: { description(spec: string): string; onDidChange(listener: (spec: string) => void): vscode.Disposable };
}

/** `kubeWatch.events.maxBytes`: the estimated bytes the kept events of one context may take. */
function readMaxBytes(): number {
  const v = vscode.workspace.getConfiguration('kubeWatch').get<number>('events.maxBytes', DEFAULT_EVENTS_MAX_BYTES);
  return Number.isFinite(v) && v >= 64 * 1024 ? Math.floor(v) : DEFAULT_EVENTS_MAX_BYTES;
}

/** A row, a describe URI or an Events node, as the object (with its context) it names. */
function subjectOf(manager: EventsManager, arg: unknown): { spec: string; context: string; subject?: EventSubject } | undefined {
  if (arg instanceof vscode.Uri) {
    const t = parseDescribeUri(arg);
    return t && { spec: t.spec, context: t.spec, subject: { kind: t.kind, namespace: t.namespace, name: t.name, uid: '' } };
  }
  if (typeof arg !== 'object' || arg === null) return undefined;
  const node = arg as { kind?: string; entryId?: string; spec?: string; context?: string; objectKind?: string; object?: { kind?: string; metadata?: { name?: string; namespace?: string; uid?: string } } };
  if (node.kind === 'events' || node.kind === 'context') return { spec: node.spec ?? '', context: node.context ?? '' };
  const meta = node.object?.metadata;
  if (!meta?.name) return undefined;
  const spec = node.spec ?? (node.entryId ? manager.contextSpecOf(node.entryId) : undefined);
  if (spec === undefined) return undefined;
  const entry = node.entryId ? manager.entry(node.entryId) : undefined;
  const kind = node.objectKind ?? entry?.type?.kind ?? node.object?.kind ?? '';
  return { spec, context: node.context ?? entry?.context ?? spec, subject: { kind, namespace: meta.namespace ?? '', name: meta.name, uid: meta.uid ?? '' } };
}

function noticeText(n: WarningNotice): string {
  const s = n.subject;
  const more = n.heldBack > 0 ? ` (and ${n.heldBack} more warning${n.heldBack === 1 ? '' : 's'} in the last minute)` : '';
  return `Warning on ${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}: ${n.record.reason}: ${n.record.message}${more}`;
}

/**
 * The events feed in VS Code: `kubeWatch.showEvents` (the whole feed of a context, or one
 * object's events from its row or its description), `kubeWatch.pinForWarnings` /
 * `kubeWatch.unpinForWarnings` (a notification for each new warning, one per object per minute),
 * and the setting `kubeWatch.events.maxBytes`.
 */
export function registerEvents(manager: EventsManager, clock: Clock, extensionUri: vscode.Uri, tree?: { showEvents(rows: EventsRegistration['rows']): void }): EventsRegistration {
  const feeds = new EventsFeeds(manager, clock, readMaxBytes());
  const panel = createEventsPanel(feeds, clock, extensionUri, readMaxBytes);
  const specOfSubject = new Map<string, string>();
  const pins = new WarningPins(clock, (notice) => {
    void vscode.window.showWarningMessage(noticeText(notice), 'Show Events').then((pick) => {
      const spec = specOfSubject.get(notice.subject.uid || notice.subject.name) ?? '';
      if (pick) panel.open(spec, spec, subjectFilter(notice.subject.kind, notice.subject.namespace, notice.subject.name));
    });
  });
  const show = (arg?: unknown) => {
    const target = subjectOf(manager, arg) ?? { spec: manager.configuration.contexts[0] ?? '', context: manager.configuration.contexts[0] ?? '' };
    const s = target.subject;
    panel.open(target.spec, target.context, s && subjectFilter(s.kind, s.namespace, s.name));
  };
  const disposables = [
    feeds,
    panel,
    pins,
    feeds.onDidArrive((_spec, arrival) => pins.arrived(arrival)),
    vscode.commands.registerCommand(SHOW_EVENTS_COMMAND, show),
    vscode.commands.registerCommand(PIN_WARNINGS_COMMAND, (arg?: unknown) => {
      const target = subjectOf(manager, arg);
      if (!target?.subject) return;
      // The feed must run to hear the warnings; what it lists at first existed before the pin.
      feeds.feed(target.spec);
      specOfSubject.set(target.subject.uid || target.subject.name, target.spec);
      pins.pin(target.subject);
      vscode.window.setStatusBarMessage(`$(pin) You will hear of new warnings on ${target.subject.kind} ${target.subject.name}`, 4000);
    }),
    vscode.commands.registerCommand(UNPIN_WARNINGS_COMMAND, (arg?: unknown) => {
      const target = subjectOf(manager, arg);
      if (target?.subject) pins.unpin(target.subject);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('kubeWatch.events.maxBytes')) feeds.setMaxBytes(readMaxBytes());
    }),
  ];
  const rows = {
    description: (spec: string) => {
      const feed = feeds.peek(spec);
      if (!feed) return 'open to start remembering';
      const warnings = warningCount(feed.store.records());
      return `${warnings} warning${warnings === 1 ? '' : 's'}`;
    },
    onDidChange: (listener: (spec: string) => void) => new vscode.Disposable(feeds.onDidChange(listener).dispose),
  };
  tree?.showEvents(rows);
  return { feeds, panel, pins, rows, dispose: () => disposables.forEach((d) => d.dispose()) };
}
