/**
 * The messages between the Watch Health panel and its webview. Plain JSON; shared by the view
 * model (extension host) and the webview script (browser), so it imports nothing.
 */

/** A band state as the tree names it, with its theme colour (a `--vscode-*` CSS variable). */
export interface StateStyle {
  state: string;
  label: string;
  /** A CSS colour expression, e.g. `var(--vscode-charts-green)`. */
  color: string;
}

export interface SpanView {
  state: string;
  /** Epoch ms; clipped to the window's start. */
  from: number;
  /** Epoch ms; the snapshot's `now` for the open span. */
  to: number;
  open: boolean;
  /** The state's label and reason, one line, for the hover. */
  title: string;
}

export interface MarkerView {
  kind: 'expired' | 'relist' | 'bookmark' | 'restart';
  at: number;
  /** The log line. */
  line: string;
}

/** The event rate, per second, as uPlot takes it: `t` in epoch seconds, one value array per series. */
export interface RateView {
  t: number[];
  adds: number[];
  updates: number[];
  deletes: number[];
}

export interface WatchHealthView {
  id: string;
  label: string;
  /** The entry is no longer configured (its track is kept until it leaves the window). */
  removed: boolean;
  state: string;
  /** What the tree says, e.g. "watching · rv 48213", "reconnecting in 4 s". */
  stateText: string;
  spans: SpanView[];
  markers: MarkerView[];
  rate: RateView;
  /** Changes counted over the window. */
  totals: { adds: number; updates: number; deletes: number };
  /** e.g. "48213 from a bookmark, 12 s ago"; absent before the first list. */
  resourceVersion?: { value: string; source?: string; at?: number; text: string };
  /** e.g. "HTTP/2, PING 3 ms" or "HTTP/1.1". */
  connection: string;
  /**
   * The band in words, what a screen reader says when the band has focus: "pods: watching · rv 12;
   * over the last 12 min: watching 11 min, process suspended 59 s; 2 markers: 1 expiry, 1 relist".
   */
  summary: string;
  /** The rate chart's text alternative: "events over the last 12 min: 40 adds, 12 updates, 3 deletes; at most 5/s". */
  rateSummary: string;
}

export interface HealthSnapshot {
  type: 'snapshot';
  /** The panel's clock: the time the snapshot was taken, epoch ms. */
  now: number;
  windowMs: number;
  /**
   * Where the time axis starts: `now - windowMs`, or the start of the recording when that is
   * later (but at least a minute before `now`), so a young recording fills the width.
   */
  from: number;
  /** Snapshots sent so far, 1 for the first. */
  serial: number;
  states: StateStyle[];
  watches: WatchHealthView[];
  /** The one time format (src/base/time-format.ts): VS Code's language and the machine's time zone. */
  timeFormat: { locale: string; timeZone: string; hourCycle?: 'h11' | 'h12' | 'h23' | 'h24' };
}

/** Extension host to webview: snapshots, and "bring this watch into view". */
export type HostMessage = HealthSnapshot | { type: 'focus'; id: string };

/** Webview to extension host. */
export type WebviewMessage = { type: 'ready' } | { type: 'copy-markdown' };
