import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom, type Clock, type TimerHandle } from '../../src/base';
import { WatchManager, type WatchConfig, type WatchManagerOptions } from '../../src/manager';
import type { LogLevel, LogSink } from '../../src/ui/log';
import { FakeApiServer, type FakeApiServerOptions } from '../support/apiserver';

/**
 * Shared by the status bar, log and inspect tests: a local API server, a real WatchManager on
 * it, a clock (accelerated or manual), and a log sink that records every line.
 */

/** Clock timers run this much faster than asked; the server's seconds are scaled alike. */
export const SCALE = 50;
export const SERVER_MS_PER_SECOND = 1000 / SCALE;
/** Upper bound, in real milliseconds, for anything a test waits for. */
export const BOUND_MS = 15_000;

export async function until(predicate: () => boolean, what: () => string, boundMs = BOUND_MS): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A clock that moves only when told: `advance(ms)` moves `now` forward, firing due timers in
 * order. Real sockets still work (their I/O is not on this clock), so a test can hold a failing
 * informer in backoff for exactly as long as it wants.
 */
export class ManualClock implements Clock {
  private time: number;
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;
  private readonly rand: () => number;

  constructor(start = Date.UTC(2026, 0, 2, 10, 0, 0), seed = 7) {
    this.time = start;
    this.rand = seededRandom(seed);
  }

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer = { at: this.time + Math.max(0, ms), seq: ++this.seq, fn };
    this.timers.push(timer);
    return { cancel: () => (this.timers = this.timers.filter((t) => t !== timer)) };
  }

  random(): number {
    return this.rand();
  }

  /** Moves time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = end;
  }

  get pendingTimers(): number {
    return this.timers.length;
  }
}

/** A LogSink that keeps every line with its level. */
export class RecordingSink implements LogSink {
  readonly lines: { level: LogLevel; message: string }[] = [];
  trace(message: string): void {
    this.lines.push({ level: 'trace', message });
  }
  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  /** Lines whose message matches, as `level message`. */
  matching(pattern: RegExp): string[] {
    return this.lines.filter((l) => pattern.test(l.message)).map((l) => `${l.level} ${l.message}`);
  }
  get text(): string {
    return this.lines.map((l) => `${l.level} ${l.message}`).join('\n');
  }
}

/** Servers, managers and a temporary directory, all closed by `close()` (call it in afterEach). */
export class UiRig {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-ui-'));
  readonly kubeconfig = path.join(this.dir, 'config');
  private readonly servers: FakeApiServer[] = [];
  private readonly managers: WatchManager[] = [];

  async server(opts: FakeApiServerOptions = {}): Promise<FakeApiServer> {
    const s = await FakeApiServer.start({ timeScale: SERVER_MS_PER_SECOND, ...opts });
    this.servers.push(s);
    return s;
  }

  /** `extra`: more manager options (a cluster registry whose `wake` a test calls, say). */
  manager(config: Partial<WatchConfig>, clock: Clock = acceleratedClock(SCALE, seededRandom(7)), extra: Partial<WatchManagerOptions> = {}): WatchManager {
    const m = new WatchManager(
      { contexts: [], resources: [], namespaces: [], kubeconfigPath: this.kubeconfig, ...config },
      { clock, informerOptions: { requestTimeoutMs: 600_000 }, kubeconfigDebounceMs: 20, ...extra },
    );
    this.managers.push(m);
    return m;
  }

  async close(): Promise<void> {
    for (const m of this.managers.splice(0)) await m.stop();
    for (const s of this.servers.splice(0)) await s.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
