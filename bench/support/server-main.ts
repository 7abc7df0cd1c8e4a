/**
 * The bench server's process: builds the datasets it is asked for and serves them (bench-server.ts).
 * Runs apart from the clients so that serving never competes with a client's event loop.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchServer, type RequestRecord, type WatchMode } from './bench-server';
import { configMaps, pods, smallObjects, type RenderedObject, type ResourceSpec } from './datasets';
import { serveRpc } from './rpc';

export type Generator =
  | { gen: 'configmaps'; count: number; namespace: string }
  /** `big`: that many of the `count` in the first namespace (`team-0000`), the rest spread over the others (B10). */
  | { gen: 'pods'; count: number; namespaces: number; big?: number }
  | { gen: 'small'; count: number; namespaces: string[] };

export interface SetupParams {
  collections: { spec: ResourceSpec; data: Generator }[];
  watchMode: WatchMode;
  /** Serve streaming lists (WatchList, as 1.32/1.34); default false (422, as 1.26/1.33). */
  watchList?: boolean;
  msPerSecond?: number;
  /** Pre-render this many MODIFIED events of the first collection. */
  streamEvents?: number;
}

export interface SetupResult {
  rv: string;
  objects: number;
  /** Mean JSON size of one list item, in bytes. */
  itemBytes: number;
  stream?: { fromRv: string; bytes: number };
}

let server: BenchServer | undefined;

function generate(data: Generator, firstRv: number, seed: number, kind: string): RenderedObject[] {
  switch (data.gen) {
    case 'configmaps':
      return configMaps(data.count, data.namespace, firstRv, seed);
    case 'pods':
      if (data.big) return [...pods(data.big, 1, firstRv, seed), ...pods(data.count - data.big, data.namespaces - 1, firstRv + data.big, seed + 1, 1)];
      return pods(data.count, data.namespaces, firstRv, seed);
    case 'small':
      return data.namespaces.flatMap((ns, i) => smallObjects(kind, data.count, ns, firstRv + i * data.count, seed + i));
  }
}

serveRpc({
  async start(p: { certDir: string }) {
    server = new BenchServer({ cert: readFileSync(join(p.certDir, 'server.pem'), 'utf8'), key: readFileSync(join(p.certDir, 'server-key.pem'), 'utf8') });
    const port = await server.listen();
    return { port };
  },
  setup(p: SetupParams): SetupResult {
    const s = server!;
    let rv = 100;
    let objects = 0;
    let bytes = 0;
    const cols = p.collections.map(({ spec, data }, i) => {
      const items = generate(data, rv, 1 + i * 7, spec.kind);
      rv += items.length;
      objects += items.length;
      for (const it of items) bytes += it.json.length;
      return { spec, items };
    });
    s.setCollections(cols);
    s.rv = rv;
    s.watchMode = p.watchMode;
    s.watchList = p.watchList ?? false;
    s.msPerSecond = p.msPerSecond ?? 1000;
    s.requests.length = 0;
    const out: SetupResult = { rv: String(rv), objects, itemBytes: objects ? bytes / objects : 0 };
    if (p.streamEvents) out.stream = s.prepareStream(p.collections[0].spec, p.streamEvents);
    return out;
  },
  openWatches(p: { label?: string }) {
    return server!.openWatches(p.label);
  },
  churn(p: { perSecond: number; durationMs: number; logNamespace?: string; logShare?: number }) {
    return server!.churn(p.perSecond, p.durationMs, p.logNamespace, p.logShare);
  },
  churnLog() {
    return server!.churnLog;
  },
  drop() {
    return server!.dropWatches();
  },
  closeWatches() {
    server!.closeWatches();
    return null;
  },
  requests(p: { label?: string; since?: number }): RequestRecord[] {
    return server!.requests.filter((r) => (p.label === undefined || r.label === p.label) && (p.since === undefined || r.at >= p.since));
  },
  maxRss() {
    return process.resourceUsage().maxRSS * 1024;
  },
  now() {
    return performance.now();
  },
});
