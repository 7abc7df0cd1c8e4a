/**
 * The screen of "Follow Logs" on a pod: one LogFollower per chosen container (several share it
 * with kubectl's `--prefix`, a colour per container), or the last terminated run read once
 * (`previous=true`) under a heading that says how it ended. VS Code-free: the pseudoterminal
 * adapter forwards its bytes and the reader's input.
 *
 * Invariants: followers run only between `start()` and `dispose()`; a new range stops the old
 * followers before the new ones start, and nothing an old follower reports is written after.
 */
import type { KubeTransport } from '../../informer/transport';
import type { ContainerRun } from '../../logs/continuity';
import { LogFollower } from '../../logs/log-follower';
import { WHOLE_LOG, type LogRange } from './log-range';
import { LogScreen, type LogScreenOptions } from './log-screen';
import { headerLines, logPrefix, terminalMarker } from './log-terminal-text';

/** What one pod log terminal reads. */
export interface PodLogRequest {
  readonly namespace: string;
  readonly pod: string;
  readonly containers: readonly string[];
  readonly previous: boolean;
  /** For a previous run: how it ended (`previousRunHeading`), the terminal's heading line. */
  readonly heading?: string;
}

export interface PodLogScreenOptions extends LogScreenOptions {
  readonly transport: KubeTransport;
  /** The container's current run from the pod informer (restart detection); undefined when unknown. */
  readonly currentRun: (container: string) => ContainerRun | undefined;
  /**
   * True once `container` will not run again (the pod Succeeded or Failed, an init container
   * completed, …): a stream that then ends is the end of its log, not a disconnect.
   */
  readonly endedForGood?: (container: string) => boolean;
  /** The lines the terminal keeps (its scrollback), stated in the header. */
  readonly keptLines: number;
  readonly silenceMs?: number;
}

const BOLD_RED = '\x1b[1;31m';
const RESET = '\x1b[0m';

export class PodLogScreen extends LogScreen {
  private followers: LogFollower[] = [];
  private runs: Promise<void>[] = [];
  /** Followers stopped and not yet finished (counted until they are, for leak checks). */
  private stopping = new Set<LogFollower>();

  constructor(
    readonly request: PodLogRequest,
    private readonly options: PodLogScreenOptions,
    range: LogRange = WHOLE_LOG,
  ) {
    super(options, range);
  }

  get activeStreams(): number {
    return [...this.followers, ...this.stopping].reduce((n, f) => n + f.activeStreams, 0);
  }

  get activeTimers(): number {
    return [...this.followers, ...this.stopping].reduce((n, f) => n + f.activeTimers, 0) + this.outage.activeTimers;
  }

  protected headerLines(): string[] {
    const { namespace, pod, containers, previous, heading } = this.request;
    const lines = headerLines(namespace, pod, containers, previous, this.options.keptLines);
    return heading ? [`${BOLD_RED}── ${heading} ──${RESET}\r\n`, ...lines] : lines;
  }

  protected startStreams(range: LogRange): void {
    const { namespace, pod, containers, previous } = this.request;
    const several = containers.length > 1;
    const followers: LogFollower[] = [];
    const current = () => this.followers === followers && !this.disposed;
    containers.forEach((container, index) => {
      const prefix = several ? logPrefix(pod, container) : '';
      const source = several ? { prefix, colourIndex: index } : undefined;
      const follower = new LogFollower(
        { namespace, pod, container, previous, tailLines: range.tailLines, sinceSeconds: range.sinceSeconds },
        {
          line: (text, timestamp) => current() && this.line(container, text, timestamp, source),
          marker: (text) => current() && this.note(container, terminalMarker(text, prefix)),
          failed: (reason, nextTryAt) => current() && this.failed(container, several ? `${prefix}${reason}` : reason, nextTryAt),
        },
        { transport: this.options.transport, clock: this.options.clock, currentRun: () => this.options.currentRun(container), endedForGood: () => this.options.endedForGood?.(container) ?? false, silenceMs: this.options.silenceMs },
      );
      followers.push(follower);
      this.runs.push(
        follower.start().then(() => {
          if (current()) this.note(container, terminalMarker(previous ? 'end of the previous run' : 'the log ended', prefix));
        }),
      );
    });
    this.followers = followers;
  }

  protected async stopStreams(): Promise<void> {
    const runs = this.runs;
    const old = this.followers;
    for (const f of old) {
      f.stop();
      this.stopping.add(f);
    }
    this.followers = [];
    this.runs = [];
    await Promise.allSettled(runs);
    for (const f of old) this.stopping.delete(f);
  }
}
