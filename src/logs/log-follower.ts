import { ApiError, AbortedError, describeError } from '../base/api-error';
import { Backoff, defaultBackoff, type BackoffOptions } from '../base/backoff';
import type { Clock, TimerHandle } from '../base/clock';
import { LineSplitter } from '../connection/wire/line-splitter';
import { sleep } from '../base/sleep';
import type { KubeTransport } from '../informer/transport';
import { reconnectMarker, restartedBetween, type ContainerRun } from './continuity';
import { ResumeDeduper } from './resume-deduper';
import { parseTimestampedLine, sinceTimeFor } from './timestamped-line';

/** Which log a follower reads. */
export interface LogTarget {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  /** The last terminated run (`--previous`): read once, never followed or resumed. */
  readonly previous?: boolean;
  /**
   * Start with the last N lines (`tailLines`, kubectl's `--tail`) instead of the whole log; only
   * the first stream asks for it, a resumed one starts from `sinceTime` as always. Infinity: the whole log.
   */
  readonly tailLines?: number;
  /**
   * Start with the lines of the last N seconds (`sinceSeconds`, kubectl's `--since`), at least 1;
   * like `tailLines`, only the first stream asks for it. Both may be given (the server applies both).
   */
  readonly sinceSeconds?: number;
}

/** Where a follower writes. Lines arrive without their timestamp prefix, in order, at most once. */
export interface LogSink {
  line(text: string, timestamp: string | undefined): void;
  /** A note from the follower itself (reconnected, gap, lost lines, gave up). */
  marker(text: string): void;
  /**
   * A stream could not be opened (`reason`, one line, never a credential) and is tried again at
   * `nextTryAt` (clock time). Without it, each such attempt is a marker "cannot read the log: …;
   * retrying"; a log terminal shows one line per failure kind with a countdown instead.
   */
  failed?(reason: string, nextTryAt: number): void;
}

export interface LogFollowerOptions {
  readonly transport: KubeTransport;
  readonly clock: Clock;
  readonly backoff?: BackoffOptions;
  /** The container's current run, read from the pod informer; undefined when unknown. */
  readonly currentRun?: () => ContainerRun | undefined;
  /** A stream that brings no byte for this long is taken as dead and resumed (a silent connection). */
  readonly silenceMs?: number;
  /**
   * True when the container has ended for good (its pod Succeeded or Failed): a stream that then
   * ends cleanly is the end of the log, not a disconnect, and is not resumed.
   */
  readonly endedForGood?: () => boolean;
}

/**
 * What a 204 (No Content) to a log request means: the API server has no kubelet to ask, because
 * the pod is on no node yet (seen on a real 1.34 server). The follower tries again, as the pod may
 * be scheduled any moment.
 */
export const NO_NODE_YET = 'the pod is not on a node yet, so there is no log to read';

/** Answers that retrying cannot change: the pod is gone, the request names no valid container, or its options are invalid (422). */
function isFinal(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.code === 404 || err.code === 422) return true;
  return err.code === 400 && /must be specified|is not valid for pod|previous terminated container/.test(err.message);
}

/**
 * Follows one container's log through disconnects: streams `follow=true&timestamps=true`, and
 * when the stream ends, fails or goes silent, waits as the watches do (the same Backoff) and
 * resumes with `sinceTime` from the last line's second, dropping the repeated lines (ResumeDeduper)
 * and writing a "reconnected, N s gap" marker, which says when the container restarted meanwhile.
 *
 * Invariants: at most one stream and one timer are open at any time, and none after `stop()`;
 * `activeStreams` and `activeTimers` say how many (for leak checks).
 */
export class LogFollower {
  private readonly abort = new AbortController();
  private readonly deduper = new ResumeDeduper();
  private readonly backoff: Backoff;
  private silenceTimer: TimerHandle | undefined;
  private streams = 0;
  private sleeping = 0;
  private done: Promise<void> | undefined;

  constructor(
    readonly target: LogTarget,
    private readonly sink: LogSink,
    private readonly options: LogFollowerOptions,
  ) {
    this.backoff = new Backoff(options.clock, options.backoff ?? defaultBackoff);
  }

  get activeStreams(): number {
    return this.streams;
  }

  get activeTimers(): number {
    return this.sleeping + (this.silenceTimer ? 1 : 0);
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Starts following; resolves when it stops (by `stop()`, or a final answer from the server). */
  start(): Promise<void> {
    this.done ??= this.run();
    return this.done;
  }

  /** Closes the stream and cancels every timer; safe to call twice. */
  stop(): void {
    this.abort.abort('stopped');
    this.clearSilence();
  }

  private path(): string {
    const { namespace, pod } = this.target;
    return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`;
  }

  private async run(): Promise<void> {
    const { clock } = this.options;
    let endedAt: number | undefined;
    // The container's run when the last stream opened: a different run at the next open means it restarted in between.
    let runAtEnd: ContainerRun | undefined;
    let runAtOpen: ContainerRun | undefined;
    let everOpened = false;
    while (!this.stopped) {
      let failure: string | undefined;
      const query: Record<string, string> = { timestamps: 'true', container: this.target.container };
      if (this.target.previous) query.previous = 'true';
      else query.follow = 'true';
      const last = this.deduper.lastTimestampMs;
      const resuming = endedAt !== undefined;
      const first = !everOpened && last === undefined;
      if (first && this.target.tailLines !== undefined && Number.isFinite(this.target.tailLines)) query.tailLines = String(Math.max(0, Math.floor(this.target.tailLines)));
      if (first && this.target.sinceSeconds !== undefined) query.sinceSeconds = String(Math.max(1, Math.floor(this.target.sinceSeconds)));
      if (resuming && last !== undefined) {
        query.sinceTime = sinceTimeFor(last);
        this.deduper.resume();
      }
      const attempt = new AbortController();
      const onStop = () => attempt.abort('stopped');
      this.abort.signal.addEventListener('abort', onStop, { once: true });
      const splitter = LineSplitter.bytes((buf, start, end) => this.accept(buf.toString('utf8', start, end)));
      let opened = false;
      this.streams++;
      try {
        await this.options.transport.stream(
          this.path(),
          query,
          attempt.signal,
          (chunk) => {
            this.armSilence(attempt);
            splitter.push(chunk);
          },
          () => {
            opened = true;
            everOpened = true;
            this.armSilence(attempt);
            if (resuming) {
              const restarted = restartedBetween(runAtEnd, this.options.currentRun?.());
              this.sink.marker(reconnectMarker(clock.now() - endedAt!, restarted));
            }
            runAtOpen = this.options.currentRun?.();
          },
        );
        splitter.end();
        if (this.target.previous || this.options.endedForGood?.()) return this.finish();
      } catch (err) {
        if (this.stopped) break;
        if (isFinal(err)) {
          this.sink.marker(`stopped: ${err instanceof ApiError ? err.message : describeError(err)}`);
          return this.finish();
        }
        if (!(err instanceof AbortedError) && !opened) failure = err instanceof ApiError && err.code === 204 ? NO_NODE_YET : describeError(err);
      } finally {
        this.streams--;
        this.clearSilence();
        this.abort.signal.removeEventListener('abort', onStop);
      }
      if (this.stopped) break;
      if (opened || endedAt === undefined) {
        endedAt = clock.now();
        runAtEnd = runAtOpen;
      }
      const delayMs = this.backoff.next().delayMs;
      if (failure !== undefined) {
        if (this.sink.failed) this.sink.failed(failure, clock.now() + delayMs);
        else this.sink.marker(`cannot read the log: ${failure}; retrying`);
      }
      this.sleeping++;
      try {
        await sleep(clock, delayMs, this.abort.signal);
      } catch {
        break;
      } finally {
        this.sleeping--;
      }
    }
    this.finish();
  }

  private finish(): void {
    this.stop();
  }

  private accept(raw: string): void {
    if (this.stopped) return;
    const line = parseTimestampedLine(raw);
    if (this.deduper.accept(line)) this.sink.line(line.text, line.timestamp);
  }

  private armSilence(attempt: AbortController): void {
    this.clearSilence();
    const ms = this.options.silenceMs ?? 90_000;
    this.silenceTimer = this.options.clock.setTimer(() => {
      this.silenceTimer = undefined;
      attempt.abort('silent');
    }, ms);
  }

  private clearSilence(): void {
    this.silenceTimer?.cancel();
    this.silenceTimer = undefined;
  }
}
