/**
 * The screen of "Follow Logs" on a workload: a WorkloadLogSet writing each container's lines with
 * kubectl's `--prefix`, coloured per pod, into the LogView (search, filter, timestamps, save).
 * VS Code-free: the pseudoterminal adapter forwards its bytes and the reader's input.
 *
 * Invariants: the set runs only between `start()` and `dispose()`; a new range stops the old set
 * (and its watches) before a new one starts, and nothing the old one reports is written after.
 */
import { WorkloadLogSet, type WorkloadLogSetOptions } from '../../logs/workload-log-set';
import type { WorkloadRef } from '../../logs/workload-pods';
import type { LogRange } from './log-range';
import { LogScreen, type LogScreenOptions } from './log-screen';
import { logPrefix, terminalMarker } from './log-terminal-text';
import { leftOutLine, podEndedLine, podFollowedLine, workloadHeaderLines, workloadName, workloadNoticeLine } from './workload-log-text';

export interface WorkloadLogScreenOptions extends LogScreenOptions {
  /** What each set runs on (transport, watches, cap); its tail and since come from the range. */
  readonly set: Omit<WorkloadLogSetOptions, 'tailLines' | 'sinceSeconds' | 'clock'>;
  /** The lines the terminal keeps (its scrollback), stated in the header. */
  readonly keptLines: number;
}

/** kubectl's `--tail=10` of `kubectl logs -f deploy/NAME`: where containers already running start by default. */
export const WORKLOAD_TAIL_LINES = 10;

/** The range a workload's terminal starts with: the last 10 lines of the containers already running. */
export const WORKLOAD_RANGE: LogRange = { label: `Last ${WORKLOAD_TAIL_LINES} lines`, tailLines: WORKLOAD_TAIL_LINES };

export class WorkloadLogScreen extends LogScreen {
  private set: WorkloadLogSet | undefined;
  private stopping = new Set<WorkloadLogSet>();

  constructor(
    readonly workload: WorkloadRef,
    private readonly options: WorkloadLogScreenOptions,
    range: LogRange = WORKLOAD_RANGE,
  ) {
    super(options, range);
  }

  get activeStreams(): number {
    return [this.set, ...this.stopping].reduce((n, s) => n + (s?.activeStreams ?? 0), 0);
  }

  get activeTimers(): number {
    return [this.set, ...this.stopping].reduce((n, s) => n + (s?.activeTimers ?? 0), 0) + this.outage.activeTimers;
  }

  protected headerLines(): string[] {
    const { kind, namespace, name, selector } = this.workload;
    return workloadHeaderLines(kind, namespace, name, selector, this.tailOf(this.range), this.options.set.maxStreams, this.options.keptLines);
  }

  protected startStreams(range: LogRange): void {
    const name = workloadName(this.workload.kind, this.workload.name);
    const key = (s: { pod: string; container: string }) => `${s.pod}/${s.container}`;
    let set: WorkloadLogSet | undefined;
    const current = () => this.set === set && !this.disposed;
    const say = (text: string) => current() && this.note('', text);
    set = new WorkloadLogSet(
      this.workload,
      {
        line: (s, text, timestamp) => current() && this.line(key(s), text, timestamp, { prefix: logPrefix(s.pod, s.container), colourIndex: s.podIndex }),
        marker: (s, text) => current() && this.note(key(s), terminalMarker(text, logPrefix(s.pod, s.container))),
        failed: (s, reason, nextTryAt) => current() && this.failed(key(s), reason, nextTryAt),
        podFollowed: (pod, _index, containers) => say(podFollowedLine(pod, containers)),
        podEnded: (pod, _index, why) => say(podEndedLine(pod, why, name)),
        leftOut: (streams, max) => say(leftOutLine(streams, max)),
        notice: (text) => say(workloadNoticeLine(text)),
      },
      { ...this.options.set, clock: this.options.clock, tailLines: this.tailOf(range), sinceSeconds: range.sinceSeconds },
    );
    this.set = set;
    set.start();
  }

  protected async stopStreams(): Promise<void> {
    const old = this.set;
    this.set = undefined;
    if (!old) return;
    this.stopping.add(old);
    await old.stop();
    this.stopping.delete(old);
  }

  /** The lines running containers start from: the range's tail; the whole log under a since or "whole log". */
  private tailOf(range: LogRange): number {
    return range.tailLines ?? Number.POSITIVE_INFINITY;
  }
}
