/**
 * A CPU profile of the extension host over one phase of a benchmark (`KW_BENCH_PROFILE=1`): the
 * host's inspector is opened with SIGUSR1 (as `node --inspect` would), the profile taken through
 * the DevTools protocol, and written as a `.cpuprofile` (open it in Chromium's DevTools), with the
 * heaviest functions by self time in the notes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import WebSocket from 'ws';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface HostProfiler {
  /** Stops the profile, writes it to `file`, and returns the heaviest functions by self time. */
  stop(file: string): Promise<string[]>;
}

/** Starts profiling process `pid` (a Node process); undefined when its inspector cannot be reached. */
export async function profileHost(pid: number): Promise<HostProfiler | undefined> {
  process.kill(pid, 'SIGUSR1');
  let url: string | undefined;
  for (let i = 0; i < 50 && !url; i++) {
    await new Promise((r) => setTimeout(r, 100));
    url = await fetch('http://127.0.0.1:9229/json/list').then(async (r) => ((await r.json()) as { webSocketDebuggerUrl: string }[])[0]?.webSocketDebuggerUrl).catch(() => undefined);
  }
  if (!url) return undefined;
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let next = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m.result), waiting.delete(m.id);
  });
  const send = <T>(method: string, params: object = {}) => new Promise<T>((resolve) => {
    const id = next++;
    waiting.set(id, resolve as (r: unknown) => void);
    ws.send(JSON.stringify({ id, method, params }));
  });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 500 });
  await send('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await send<{ profile: Profile }>('Profiler.stop');
      ws.close();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      return heaviest(profile);
    },
  };
}

/** Starts profiling the page's renderer (the workbench and its webviews, same origin) through a CDP session. */
export async function profilePage(page: import('playwright-core').Page): Promise<HostProfiler> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return {
    async stop(file) {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      await cdp.detach().catch(() => undefined);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      return heaviest(profile);
    },
  };
}

/** The functions with the most self time, `name (file:line) ms`. */
function heaviest(profile: Profile, top = 25): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]);
    if (!node) continue;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} (${path.basename(f.url)}:${f.lineNumber + 1})`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  }
  const total = (profile.endTime - profile.startTime) / 1000;
  return [`total ${total.toFixed(0)} ms`, ...[...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => `${ms.toFixed(1)} ms  ${k}`)];
}
