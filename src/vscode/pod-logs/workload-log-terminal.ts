import * as vscode from 'vscode';
import { WorkloadLogSet, type WorkloadLogSetOptions, type WorkloadRef } from '../../logs';
import { OutageTicker } from './outage-ticker';
import {
  leftOutLine,
  logPrefix,
  podEndedLine,
  podFollowedLine,
  terminalLine,
  terminalMarker,
  workloadHeaderLines,
  workloadName,
  workloadNoticeLine,
} from '../../ui/logs';

export interface WorkloadLogTerminalOptions {
  /** What the set runs on (transport, clock, watches, cap, tail). */
  readonly set: WorkloadLogSetOptions;
  /** The lines the terminal keeps (its scrollback), stated in the header. */
  readonly keptLines: number;
  /** Called once after the terminal is closed and every follower and watch of it has stopped. */
  readonly onClosed: () => void;
}

/**
 * The pseudoterminal of "Follow Logs" on a workload: a WorkloadLogSet writing each container's
 * lines with kubectl's `--prefix`, coloured per pod. Invariant: the set runs only between
 * `open` and `close`; closing the terminal stops every stream, timer and watch of it.
 */
export class WorkloadLogTerminal implements vscode.Pseudoterminal {
  private readonly writes = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writes.event;
  private readonly set: WorkloadLogSet;
  private closed = false;
  /** During an outage: one line per failure kind, with a countdown (not a line per attempt per pod). */
  private readonly outage: OutageTicker;

  constructor(
    readonly workload: WorkloadRef,
    private readonly options: WorkloadLogTerminalOptions,
  ) {
    const name = workloadName(workload.kind, workload.name);
    this.outage = new OutageTicker(options.set.clock, (text) => {
      if (!this.closed) this.writes.fire(text);
    });
    const key = (s: { pod: string; container: string }) => `${s.pod}/${s.container}`;
    this.set = new WorkloadLogSet(
      workload,
      {
        line: (s, text) => this.outage.write(key(s), terminalLine(text, logPrefix(s.pod, s.container), s.podIndex)),
        marker: (s, text) => this.outage.write(key(s), terminalMarker(text, logPrefix(s.pod, s.container))),
        failed: (s, reason, nextTryAt) => this.outage.failed(key(s), reason, nextTryAt),
        podFollowed: (pod, _index, containers) => this.write(podFollowedLine(pod, containers)),
        podEnded: (pod, _index, why) => this.write(podEndedLine(pod, why, name)),
        leftOut: (streams, max) => this.write(leftOutLine(streams, max)),
        notice: (text) => this.write(workloadNoticeLine(text)),
      },
      options.set,
    );
  }

  get activeStreams(): number {
    return this.set.activeStreams;
  }

  get activeTimers(): number {
    return this.set.activeTimers + this.outage.activeTimers;
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.outage.setColumns(dimensions.columns);
  }

  open(initialDimensions: vscode.TerminalDimensions | undefined): void {
    if (initialDimensions) this.outage.setColumns(initialDimensions.columns);
    if (this.closed) return;
    const { kind, namespace, name, selector } = this.workload;
    for (const line of workloadHeaderLines(kind, namespace, name, selector, this.options.set.tailLines, this.options.set.maxStreams, this.options.keptLines)) this.write(line);
    this.set.start();
  }

  /** The terminal was closed: stop the set. Safe twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.outage.dispose();
    this.writes.dispose();
    void this.set.stop().then(() => this.options.onClosed());
  }

  /** A line of the set as a whole: around the outage line, if one is open. */
  private write(text: string): void {
    if (!this.closed) this.outage.write('', text);
  }
}
