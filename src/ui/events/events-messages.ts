/**
 * The messages between the Events panel and its webview. Plain JSON; shared by the view model
 * (extension host) and the webview script (browser), so it imports nothing.
 */

/** What the panel shows: the user's filter, and the object it was opened for ("Show Events"). */
export interface EventsFilter {
  /** Words to find in reason, message, object, namespace or reporter (case-insensitive). */
  text: string;
  /** '' = every namespace. */
  namespace: string;
  warningsOnly: boolean;
}

/** The object a "Show Events" asked for: it, and for a workload its ReplicaSets, Jobs and Pods. */
export interface EventsSubjectFilter {
  kind: string;
  namespace: string;
  name: string;
  /** Also the objects a workload owns (named after it: `web-6d5f…`, `web-6d5f…-z9w4c`). */
  withOwned: boolean;
}

export interface EventView {
  type: string;
  reason: string;
  message: string;
  count: number;
  /** `14:05:10 (2m ago)`. */
  lastSeen: string;
  reporter: string;
  /** The server deleted it (TTL); the feed kept it. */
  deleted: boolean;
}

export type EventsRowView =
  | { kind: 'section'; label: string }
  | {
      kind: 'group';
      key: string;
      /** `Pod shop/web-1`. */
      object: string;
      warnings: number;
      /** Occurrences (counts summed). */
      count: number;
      lastSeen: string;
      /** The newest event's reason and message. */
      latest: string;
      events: EventView[];
    }
  | { kind: 'gap'; text: string; open: boolean };

export interface EventsSnapshot {
  type: 'snapshot';
  /** `Events: kind-dev`. */
  title: string;
  /** Where the feed watches, in words ("cluster wide, events.k8s.io/v1"; "in team-a only: you may not list events cluster wide"). */
  scope: string;
  /** Why nothing is watched, if so. */
  problem?: string;
  /** "1,204 events kept · 37 dropped to stay within 8 MiB (kubeWatch.events.maxBytes)". */
  memory: string;
  dropped: number;
  /** Warnings held, repeats counted. */
  warnings: number;
  filter: EventsFilter;
  subject?: EventsSubjectFilter;
  /** The namespaces seen, for the namespace filter. */
  namespaces: string[];
  rows: EventsRowView[];
}

export type HostMessage = EventsSnapshot;

export type WebviewMessage = { type: 'ready' } | { type: 'filter'; filter: EventsFilter } | { type: 'clear-subject' };
