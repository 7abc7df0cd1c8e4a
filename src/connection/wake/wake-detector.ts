import type { Disposable } from '../../base/disposable';
import type { TimerHandle } from '../../base/clock';

/** The clocks a wake detector compares; injectable so tests can simulate a suspend. */
export interface WakeClocks {
  /** Wall-clock milliseconds (Date.now): jumps forward across a machine suspend. */
  wallNow(): number;
  /** Monotonic milliseconds (performance.now): on Linux it does not count a suspend. */
  monotonicNow(): number;
  /** CPU time this process used, in milliseconds (process.cpuUsage user + system). */
  cpuNow(): number;
  setTimer(fn: () => void, ms: number): TimerHandle;
}

export const systemWakeClocks: WakeClocks = {
  wallNow: () => Date.now(),
  monotonicNow: () => performance.now(),
  cpuNow: () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  },
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

export interface WakeDetectorOptions {
  /** How often the detector ticks. Default 2 s. */
  intervalMs?: number;
  /** How late a tick (or how far the wall clock jumps) must be to count as a wake. Default 5 s. */
  thresholdMs?: number;
  clocks?: WakeClocks;
}

/**
 * Notices that the machine was suspended or the process could not run (SIGSTOP, a debugger):
 * - the wall clock advanced more than the monotonic clock by over `thresholdMs` (a suspend), or
 * - a periodic tick fired more than `thresholdMs` late while the process used little CPU in the
 *   gap. A busy event loop also delays ticks, but it burns CPU all along; a stopped process
 *   does not, which is how the two are told apart.
 * `onWake` receives how long the process was away, in milliseconds.
 */
export class WakeDetector implements Disposable {
  private readonly intervalMs: number;
  private readonly thresholdMs: number;
  private readonly clocks: WakeClocks;
  private timer: TimerHandle | undefined;
  private lastWall = 0;
  private lastMono = 0;
  private lastCpu = 0;

  constructor(
    private readonly onWake: (awayMs: number) => void,
    options: WakeDetectorOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 2000;
    this.thresholdMs = options.thresholdMs ?? 5000;
    this.clocks = options.clocks ?? systemWakeClocks;
  }

  start(): void {
    if (this.timer) return;
    this.mark();
    this.schedule();
  }

  /** Compares the clocks now; called by the periodic timer, and by tests. */
  check(): void {
    const wallDelta = this.clocks.wallNow() - this.lastWall;
    const monoDelta = this.clocks.monotonicNow() - this.lastMono;
    const cpuDelta = this.clocks.cpuNow() - this.lastCpu;
    this.mark();
    const suspended = wallDelta - monoDelta > this.thresholdMs;
    const late = monoDelta - this.intervalMs;
    // A late tick with the CPU busy for most of the gap is a busy event loop, not a wake.
    const stopped = late > this.thresholdMs && cpuDelta < monoDelta / 2;
    if (suspended) this.onWake(Math.max(0, wallDelta - this.intervalMs));
    else if (stopped) this.onWake(late);
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private mark(): void {
    this.lastWall = this.clocks.wallNow();
    this.lastMono = this.clocks.monotonicNow();
    this.lastCpu = this.clocks.cpuNow();
  }

  private schedule(): void {
    this.timer = this.clocks.setTimer(() => {
      this.check();
      this.schedule();
    }, this.intervalMs);
  }
}
