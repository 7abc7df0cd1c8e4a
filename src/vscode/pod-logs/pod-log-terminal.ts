import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { KubeTransport } from '../../informer';
import { LogFollower, type ContainerRun } from '../../logs';
import { headerLines, logPrefix, terminalLine, terminalMarker } from '../../ui/logs';
import { OutageTicker } from './outage-ticker';

/** What one log terminal follows. */
export interface PodLogRequest {
  readonly namespace: string;
  readonly pod: string;
  readonly containers: readonly string[];
  readonly previous: boolean;
}

export interface PodLogTerminalOptions {
  readonly transport: KubeTransport;
  readonly clock: Clock;
  /** The container's current run from the pod informer (restart detection); undefined when unknown. */
  readonly currentRun: (container: string) => ContainerRun | undefined;
  /** True once the pod Succeeded or Failed: a stream that then ends is the end of the log. */
  readonly podFinished?: () => boolean;
  /** The lines the terminal keeps (its scrollback), stated in the header. */
  readonly keptLines: number;
  /** Called once after the terminal is closed (by the user or by dispose) and every follower has stopped. */
  readonly onClosed: () => void;
}

/**
 * The pseudoterminal of one "Follow Logs": one LogFollower per container, writing into the
 * terminal as lines arrive (the terminal scrolls with them). Several containers share the
 * terminal with kubectl's `--prefix`. Invariant: followers run only between `open` and `close`;
 * closing the terminal stops every stream, timer and backoff (`activeStreams`/`activeTimers` 0).
 */
export class PodLogTerminal implements vscode.Pseudoterminal {
  private readonly writes = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writes.event;
  private followers: LogFollower[] = [];
  private runs: Promise<void>[] = [];
  private closed = false;
  /** During an outage: one line per failure kind, with a countdown (not a line per attempt). */
  private readonly outage: OutageTicker;

  constructor(
    readonly request: PodLogRequest,
    private readonly options: PodLogTerminalOptions,
  ) {
    this.outage = new OutageTicker(options.clock, (text) => {
      if (!this.closed) this.writes.fire(text);
    });
  }

  get activeStreams(): number {
    return this.followers.reduce((n, f) => n + f.activeStreams, 0);
  }

  get activeTimers(): number {
    return this.followers.reduce((n, f) => n + f.activeTimers, 0) + this.outage.activeTimers;
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.outage.setColumns(dimensions.columns);
  }

  open(initialDimensions: vscode.TerminalDimensions | undefined): void {
    if (initialDimensions) this.outage.setColumns(initialDimensions.columns);
    if (this.closed || this.followers.length > 0) return;
    const { namespace, pod, containers, previous } = this.request;
    for (const line of headerLines(namespace, pod, containers, previous, this.options.keptLines)) this.writes.fire(line);
    const several = containers.length > 1;
    containers.forEach((container, index) => {
      const prefix = several ? logPrefix(pod, container) : '';
      const follower = new LogFollower(
        { namespace, pod, container, previous },
        {
          line: (text) => this.outage.write(container, terminalLine(text, prefix, index)),
          marker: (text) => this.outage.write(container, terminalMarker(text, prefix)),
          failed: (reason, nextTryAt) => this.outage.failed(container, several ? `${prefix}${reason}` : reason, nextTryAt),
        },
        { transport: this.options.transport, clock: this.options.clock, currentRun: () => this.options.currentRun(container), endedForGood: this.options.podFinished },
      );
      this.followers.push(follower);
      this.runs.push(
        follower.start().then(() => {
          if (!this.closed) this.outage.write(container, terminalMarker(previous ? 'end of the previous run' : 'the log ended', prefix));
        }),
      );
    });
  }

  /** The terminal was closed: stop every follower. Safe twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.outage.dispose();
    for (const f of this.followers) f.stop();
    this.writes.dispose();
    void Promise.allSettled(this.runs).then(() => this.options.onClosed());
  }

}
