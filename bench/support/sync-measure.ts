/**
 * How the sync cases (B1, B3, B8) measure one initial sync in a client process: time to synced, peak RSS, RSS
 * before, the heap retained after sync (above what the process held before), and the memory
 * sample of highest RSS. Imports nothing but Node, so a bare process can use it too.
 */
import * as https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { getHeapSpaceStatistics } from 'node:v8';
import { collectionPath, type ResourceSpec } from './datasets';

export interface Conn {
  url: string;
  caPem: string;
  /** The bearer token's label: requests are attributed to it. */
  label: string;
}

export interface SyncResult {
  ms: number;
  retainedBytes: number;
  objects: number;
  /** Peak resident set size of the process, bytes. */
  maxRss: number;
  /** Resident set size just before the sync started (the process with its code loaded), bytes. */
  rssBefore: number;
  /** process.memoryUsage() sampled every 10 ms during the sync: the sample of highest RSS. */
  atPeak?: NodeJS.MemoryUsage;
  /** V8's heap spaces (name: size/used, bytes) at that sample. */
  spacesAtPeak?: Record<string, [number, number]>;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** heapUsed after a few full collections (needs --expose-gc). */
export async function settleHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    await new Promise((r) => setTimeout(r, 20));
    gc?.();
  }
  return process.memoryUsage().heapUsed;
}

/** Runs `start` (which resolves to the number of objects synced) and measures it; throws unless it synced `expect`. */
export async function measureSync(what: string, expect: number, start: () => Promise<number>): Promise<SyncResult> {
  const base = await settleHeap();
  const rssBefore = process.memoryUsage().rss;
  let atPeak = process.memoryUsage();
  let spacesAtPeak: Record<string, [number, number]> = {};
  const sampler = setInterval(() => {
    const u = process.memoryUsage();
    if (u.rss > atPeak.rss) {
      atPeak = u;
      spacesAtPeak = Object.fromEntries(getHeapSpaceStatistics().filter((sp) => sp.space_size > 0).map((sp) => [sp.space_name, [sp.space_size, sp.space_used_size]]));
    }
  }, 10);
  const t0 = performance.now();
  const objects = await start().finally(() => clearInterval(sampler));
  const ms = performance.now() - t0;
  // Let the watch that follows the list open, then measure what stays.
  await new Promise((r) => setTimeout(r, 100));
  const retainedBytes = (await settleHeap()) - base;
  if (objects !== expect) throw new Error(`${what} synced ${objects} objects, expected ${expect}`);
  return { ms, retainedBytes, objects, maxRss: process.resourceUsage().maxRSS * 1024, rssBefore, atPeak, spacesAtPeak };
}

/** The limit's HTTP client: one keep-alive agent, a GET, the raw response. */
export function bareGet(conn: Conn, agent: https.Agent, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = https.request(`${conn.url}${path}`, { agent, headers: { Authorization: `Bearer bench-${conn.label}`, Accept: 'application/json' } }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/**
 * The floor of a streaming sync in JavaScript: one streaming list, each line JSON.parsed
 * (managedFields dropped) and kept in `keep`, nothing else: no informer, no store, no events.
 * Resolves to the number of objects once the initial-events-end bookmark arrives.
 */
export function streamingListFloor(conn: Conn, spec: ResourceSpec, namespace: string | undefined, keep: unknown[]): () => Promise<number> {
  const agent = new https.Agent({ keepAlive: true, ca: conn.caPem });
  return async () => {
    const q = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
    const res = await bareGet(conn, agent, `${collectionPath(spec, namespace)}?${q}`);
    const objects = new Map<string, unknown>();
    let pending = '';
    for await (const c of res) {
      const lines = (pending + (c as Buffer).toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const ev = JSON.parse(line) as { type: string; object: { metadata: { uid?: string; managedFields?: unknown; annotations?: Record<string, string> } } };
        if (ev.type === 'BOOKMARK') {
          if (ev.object.metadata.annotations?.['k8s.io/initial-events-end'] !== 'true') continue;
          res.destroy();
          keep.push(objects);
          return objects.size;
        }
        ev.object.metadata.managedFields = undefined;
        objects.set(ev.object.metadata.uid ?? '', ev.object);
      }
    }
    throw new Error('the streaming list ended before its bookmark');
  };
}
