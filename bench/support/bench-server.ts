/**
 * A minimal API server for load generation: it serves list and watch of pre-rendered objects on
 * loopback over HTTPS, with kube-apiserver 1.26's wire format (JSON list with `limit`/`continue`,
 * chunked watch responses of one JSON event per line, BOOKMARKs, a clean end at
 * `timeoutSeconds`), and does no other bookkeeping than a log of the requests it received, so
 * that it is not the bottleneck. Every client reads the same bytes.
 *
 * Requests are attributed by bearer token: `Bearer bench-<label>`.
 *
 * With `watchList` on (as 1.32/1.34), a watch with `sendInitialEvents=true` streams every object
 * as ADDED, then the `k8s.io/initial-events-end` BOOKMARK, then goes on as a watch of the current
 * mode; with it off (as 1.26/1.33) such a request gets 422, naming sendInitialEvents.
 */
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { eventLine, groupVersion, type RenderedObject, type ResourceSpec } from './datasets';

export interface RequestRecord {
  /** performance.now() of the server process. */
  at: number;
  /** 'watchlist': a watch with sendInitialEvents=true (a streaming list). */
  verb: 'list' | 'watch' | 'watchlist' | 'other';
  label: string;
  path: string;
  resourceVersion?: string;
  limit?: string;
  timeoutSeconds?: string;
}

export type WatchMode =
  /** Open and silent until its timeout (or a drop). */
  | { mode: 'hold' }
  /** A watch from `fromRv` gets every pre-rendered event at once, as fast as the socket takes them. */
  | { mode: 'stream' }
  /** Quiet: a BOOKMARK every `bookmarkIntervalMs` (when asked for), a clean end at the timeout. */
  | { mode: 'quiet'; bookmarkIntervalMs: number }
  /** Silent until `churn()`: then MODIFIED events of random objects at a steady rate (B5). */
  | { mode: 'churn' };

interface Collection {
  spec: ResourceSpec;
  /** Sorted by namespace, then name (etcd key order). */
  items: RenderedObject[];
  /** Namespace -> [start, end) in items. */
  ranges: Map<string, [number, number]>;
}

interface OpenWatch {
  res: ServerResponse;
  collection?: Collection;
  socket: Socket;
  label: string;
  timers: NodeJS.Timeout[];
}

const keyOf = (group: string, version: string, resource: string) => `${group}/${version}/${resource}`;

export class BenchServer {
  private readonly server: https.Server;
  private readonly collections = new Map<string, Collection>();
  private readonly watches = new Set<OpenWatch>();
  private readonly sockets = new Set<Socket>();
  readonly requests: RequestRecord[] = [];
  /** The global resourceVersion: every list answers with it. */
  rv = 1;
  watchMode: WatchMode = { mode: 'hold' };
  /** The WatchList feature: streaming lists served (true) or refused with 422 (false). */
  watchList = false;
  /** Real milliseconds per server second (timeoutSeconds, the default watch timeout). */
  msPerSecond = 1000;
  private streamChunks: Buffer[] = [];
  private churnTimer: NodeJS.Timeout | undefined;
  /** The last churn's events of objects of its `logNamespace`: name, the restart count it set (its serial), when written (epoch ms). */
  churnLog: { name: string; n: number; at: number; label: string }[] = [];
  /** Per collection: each object's JSON tail with the status flipped (phase, readiness). */
  private readonly flipped = new Map<Collection, string[]>();
  private streamFromRv = '';
  port = 0;

  constructor(tls: { cert: string; key: string }) {
    this.server = https.createServer({ cert: tls.cert, key: tls.key, keepAlive: true }, (req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 120_000;
    this.server.headersTimeout = 0;
    this.server.requestTimeout = 0;
    this.server.on('connection', (s: Socket) => {
      s.setNoDelay(true);
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Replaces all collections; items are sorted by key here. */
  setCollections(list: { spec: ResourceSpec; items: RenderedObject[] }[]): void {
    this.closeWatches();
    this.collections.clear();
    for (const { spec, items } of list) {
      items.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const ranges = new Map<string, [number, number]>();
      for (let i = 0; i < items.length; i++) {
        const r = ranges.get(items[i].namespace);
        if (r) r[1] = i + 1;
        else ranges.set(items[i].namespace, [i, i + 1]);
      }
      this.collections.set(keyOf(spec.group, spec.version, spec.resource), { spec, items, ranges });
    }
  }

  /**
   * Pre-renders `count` MODIFIED events cycling over the collection's objects, with
   * resourceVersions following the current one. Returns the bytes per event (mean).
   */
  prepareStream(spec: ResourceSpec, count: number): { fromRv: string; bytes: number } {
    const col = this.collections.get(keyOf(spec.group, spec.version, spec.resource));
    if (!col) throw new Error('no such collection');
    this.streamFromRv = String(this.rv);
    const chunks: Buffer[] = [];
    let part: string[] = [];
    let partLen = 0;
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const line = eventLine('MODIFIED', spec, col.items[i % col.items.length], this.rv + 1 + i);
      part.push(line);
      partLen += line.length;
      if (partLen >= 1 << 20) {
        const b = Buffer.from(part.join(''));
        bytes += b.length;
        chunks.push(b);
        part = [];
        partLen = 0;
      }
    }
    if (part.length) {
      const b = Buffer.from(part.join(''));
      bytes += b.length;
      chunks.push(b);
    }
    this.streamChunks = chunks;
    return { fromRv: this.streamFromRv, bytes: bytes / count };
  }

  /**
   * Writes MODIFIED events of randomly chosen objects to every open watch, `perSecond` in all,
   * in 10 ms batches, for `durationMs`. Each event flips its object's phase and readiness, so
   * that a tree row changes. Returns how many events it will write. With `logShare`, that share of
   * the events (every 1/logShare-th) is of an object of `logNamespace`, the others random as before:
   * the same load, with enough timed events of the namespace on screen for a p95 (B15).
   */
  churn(perSecond: number, durationMs: number, logNamespace?: string, logShare = 0): number {
    this.churnLog = [];
    const watches = [...this.watches];
    const targets = watches
      .map((w) => ({ w, col: w.collection }))
      .filter((t): t is { w: OpenWatch; col: Collection } => t.col !== undefined && t.col.items.length > 0);
    if (targets.length === 0) return 0;
    const batchMs = 10;
    const total = Math.round((perSecond * durationMs) / 1000);
    let sent = 0;
    const flips = new Map<RenderedObject, number>();
    const flipped: { name: string; n: number; label: string }[] = [];
    // Rendered before the clock starts: rendering 100,000 of them in the first tick held it for a
    // second, which then wrote a second's events at once (a burst, not the rate asked for).
    for (const { col } of targets) this.flippedTails(col);
    const started = performance.now();
    const tick = () => {
      const due = Math.min(total, Math.round(((performance.now() - started) * perSecond) / 1000));
      for (const { w, col } of targets) {
        if (!this.watches.has(w)) continue;
        let text = '';
        for (let i = sent; i < due; i++) {
          const range = logShare > 0 && logNamespace !== undefined && i % Math.round(1 / logShare) === 0 ? col.ranges.get(logNamespace) : undefined;
          const idx = range ? range[0] + Math.floor(Math.random() * (range[1] - range[0])) : Math.floor(Math.random() * col.items.length);
          const obj = col.items[idx];
          const n = (flips.get(obj) ?? 0) + 1;
          flips.set(obj, n);
          let tail = n % 2 === 1 ? this.flippedTails(col)[idx] : obj.tail;
          // A Pod of the logged namespace counts its events in its restarts: each one reads differently (B11).
          const logged = obj.namespace === logNamespace;
          if (logged) tail = tail.replace(/"restartCount":\d+/, `"restartCount":${n}`);
          this.rv++;
          text += eventLine('MODIFIED', col.spec, { ...obj, tail }, this.rv);
          if (logged) flipped.push({ name: obj.name, n, label: w.label });
        }
        if (text) w.res.write(text);
        // Written to the socket now: the moment a row's change starts (B11).
        const at = Date.now();
        for (const f of flipped.splice(0)) this.churnLog.push({ ...f, at });
      }
      sent = due;
      if (sent < total) this.churnTimer = setTimeout(tick, batchMs);
    };
    clearTimeout(this.churnTimer);
    this.churnTimer = setTimeout(tick, batchMs);
    return total;
  }

  private flippedTails(col: Collection): string[] {
    let tails = this.flipped.get(col);
    if (!tails) {
      tails = col.items.map((o) => o.tail.replace('"phase":"Running"', '"phase":"Pending"').replace(/"ready":true/g, '"ready":false').replace(/"status":"True"/g, '"status":"False"'));
      this.flipped.set(col, tails);
    }
    return tails;
  }

  openWatches(label?: string): number {
    let n = 0;
    for (const w of this.watches) if (label === undefined || w.label === label) n++;
    return n;
  }

  /** Drops every open watch's connection at once (the socket is destroyed, no terminating chunk). */
  dropWatches(): { at: number; count: number } {
    const at = performance.now();
    const open = [...this.watches];
    for (const w of open) {
      this.finish(w);
      w.socket.destroy();
    }
    return { at, count: open.length };
  }

  closeWatches(): void {
    for (const w of [...this.watches]) {
      this.finish(w);
      w.res.end();
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.churnTimer);
    this.closeWatches();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private finish(w: OpenWatch): void {
    for (const t of w.timers) clearTimeout(t);
    w.timers.length = 0;
    this.watches.delete(w);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'https://bench');
    const q = url.searchParams;
    const auth = req.headers.authorization ?? '';
    const label = auth.startsWith('Bearer bench-') ? auth.slice('Bearer bench-'.length) : '';
    const watch = q.get('watch') === 'true' || q.get('watch') === '1';
    const m =
      /^\/api\/(v1)(?:\/namespaces\/([^/]+))?\/([^/]+)$/.exec(url.pathname) ??
      /^\/apis\/([^/]+)\/([^/]+)(?:\/namespaces\/([^/]+))?\/([^/]+)$/.exec(url.pathname);
    const watchList = watch && q.get('sendInitialEvents') === 'true';
    const record: RequestRecord = { at: performance.now(), verb: m ? (watchList ? 'watchlist' : watch ? 'watch' : 'list') : 'other', label, path: url.pathname };
    if (q.has('resourceVersion')) record.resourceVersion = q.get('resourceVersion')!;
    if (q.has('limit')) record.limit = q.get('limit')!;
    if (q.has('timeoutSeconds')) record.timeoutSeconds = q.get('timeoutSeconds')!;
    this.requests.push(record);
    if (!label) return this.status(res, 401, 'Unauthorized', 'Unauthorized');
    if (!m) {
      const doc = this.discovery(url.pathname);
      if (!doc) return this.status(res, 404, 'NotFound', 'the server could not find the requested resource');
      const body = JSON.stringify(doc);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      return void res.end(body);
    }
    const [group, version, namespace, resource] = m.length === 4 ? ['', m[1], m[2], m[3]] : [m[1], m[2], m[3], m[4]];
    const col = this.collections.get(keyOf(group, version, resource));
    if (!col) return this.status(res, 404, 'NotFound', 'the server could not find the requested resource');
    if (watchList && !this.watchList) {
      return this.status(res, 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled', 'sendInitialEvents');
    }
    if (watch) return this.serveWatch(req, res, col, label, q, watchList ? namespace ?? null : undefined);
    return void this.serveList(res, col, namespace, q);
  }

  /** Unaggregated discovery of the collections (what the watch manager resolves kubectl spellings with). */
  private discovery(path: string): object | undefined {
    const specs = [...this.collections.values()].map((c) => c.spec);
    const groups = [...new Set(specs.filter((s) => s.group).map((s) => `${s.group}/${s.version}`))];
    const resources = (group: string, version: string) =>
      specs
        .filter((s) => s.group === group && s.version === version)
        .map((s) => ({ name: s.resource, singularName: s.kind.toLowerCase(), namespaced: s.namespaced, kind: s.kind, verbs: ['get', 'list', 'watch'] }));
    if (path === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${this.port}` }] };
    if (path === '/apis') {
      return {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: groups.map((gv) => {
          const [name, version] = gv.split('/');
          return { name, versions: [{ groupVersion: gv, version }], preferredVersion: { groupVersion: gv, version } };
        }),
      };
    }
    if (path === '/api/v1') return { kind: 'APIResourceList', groupVersion: 'v1', resources: resources('', 'v1') };
    const m = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
    if (m && groups.includes(`${m[1]}/${m[2]}`)) return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${m[1]}/${m[2]}`, resources: resources(m[1], m[2]) };
    return undefined;
  }

  private status(res: ServerResponse, code: number, reason: string, message: string, field?: string): void {
    const details = field ? { causes: [{ reason: 'FieldValueForbidden', message: message.slice(message.indexOf('Forbidden')), field }] } : undefined;
    const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details, code });
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  }

  private async serveList(res: ServerResponse, col: Collection, namespace: string | undefined, q: URLSearchParams): Promise<void> {
    let start = 0;
    let end = col.items.length;
    if (namespace !== undefined) {
      const r = col.ranges.get(namespace);
      [start, end] = r ?? [0, 0];
    }
    const rv = String(this.rv);
    let from = start;
    const cont = q.get('continue');
    if (cont) {
      try {
        const t = JSON.parse(Buffer.from(cont, 'base64url').toString()) as { offset: number };
        from = start + t.offset;
      } catch {
        return this.status(res, 400, 'BadRequest', 'continue key is not valid');
      }
    }
    const limit = Number(q.get('limit') ?? 0);
    let to = end;
    let meta = `{"resourceVersion":"${rv}"}`;
    if (limit > 0 && end - from > limit) {
      to = from + limit;
      const token = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: this.rv, offset: to - start })).toString('base64url');
      meta = `{"resourceVersion":"${rv}","continue":"${token}","remainingItemCount":${end - to}}`;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    const kind = `${col.spec.kind}List`;
    let parts: Buffer[] = [Buffer.from(`{"kind":"${kind}","apiVersion":"${groupVersion(col.spec)}","metadata":${meta},"items":[`)];
    let size = parts[0].length;
    const comma = Buffer.from(',');
    for (let i = from; i < to; i++) {
      if (i > from) {
        parts.push(comma);
        size++;
      }
      const b = col.items[i].json;
      parts.push(b);
      size += b.length;
      if (size >= 1 << 20) {
        const ok = res.write(Buffer.concat(parts, size));
        parts = [];
        size = 0;
        if (!ok) await drained(res);
        if (res.destroyed) return;
      }
    }
    parts.push(Buffer.from(']}\n'));
    res.end(Buffer.concat(parts));
  }

  /**
   * `initialOf`: for a streaming list, the namespace whose objects come first (null: all of them);
   * undefined for a plain watch.
   */
  private serveWatch(req: IncomingMessage, res: ServerResponse, col: Collection, label: string, q: URLSearchParams, initialOf?: string | null): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const w: OpenWatch = { res, socket: req.socket, label, timers: [], collection: col };
    this.watches.add(w);
    res.on('close', () => this.finish(w));
    // A streaming list's initial events come first; in stream mode the pre-rendered events follow them.
    const initial = initialOf !== undefined ? this.initialEvents(w, col, initialOf ?? undefined) : undefined;
    const ts = Number(q.get('timeoutSeconds') ?? 0);
    const seconds = ts > 0 ? ts : 1800 * (1 + Math.random());
    const deadline = seconds * this.msPerSecond;
    w.timers.push(
      setTimeout(() => {
        if (!this.watches.has(w)) return;
        this.finish(w);
        res.end();
      }, deadline),
    );
    const mode = this.watchMode;
    if (mode.mode === 'stream' && initial) {
      void initial.then(() => this.stream(w, this.streamChunks));
    } else if (mode.mode === 'stream' && q.get('resourceVersion') === this.streamFromRv) {
      void this.stream(w, this.streamChunks);
    } else if (mode.mode === 'quiet' && (q.get('allowWatchBookmarks') === 'true' || q.get('allowWatchBookmarks') === '1')) {
      const spec = col.spec;
      const every = mode.bookmarkIntervalMs;
      const tick = () => {
        if (!this.watches.has(w)) return;
        // Other resources keep changing in a real cluster, so the bookmark's RV moves on.
        this.rv++;
        res.write(`{"type":"BOOKMARK","object":{"kind":"${spec.kind}","apiVersion":"${groupVersion(spec)}","metadata":{"resourceVersion":"${this.rv}","creationTimestamp":null}}}\n`);
        w.timers.push(setTimeout(tick, every));
      };
      w.timers.push(setTimeout(tick, every));
    }
  }

  /** The streaming list's initial events: every object as ADDED (1 MiB writes), then the annotated bookmark. */
  private async initialEvents(w: OpenWatch, col: Collection, namespace: string | undefined): Promise<void> {
    let [start, end] = [0, col.items.length];
    if (namespace !== undefined) [start, end] = col.ranges.get(namespace) ?? [0, 0];
    const spec = col.spec;
    let part: string[] = [];
    let size = 0;
    for (let i = start; i < end; i++) {
      const o = col.items[i];
      const line = eventLine('ADDED', spec, o, o.rv);
      part.push(line);
      size += line.length;
      if (size >= 1 << 20) {
        if (!this.watches.has(w)) return;
        if (!w.res.write(part.join(''))) await drained(w.res);
        part = [];
        size = 0;
      }
    }
    part.push(`{"type":"BOOKMARK","object":{"kind":"${spec.kind}","apiVersion":"${groupVersion(spec)}","metadata":{"resourceVersion":"${this.rv}","annotations":{"k8s.io/initial-events-end":"true"}}}}\n`);
    if (this.watches.has(w)) w.res.write(part.join(''));
  }

  private async stream(w: OpenWatch, chunks: Buffer[]): Promise<void> {
    for (const c of chunks) {
      if (!this.watches.has(w)) return;
      if (!w.res.write(c)) await drained(w.res);
    }
  }
}

/** Resolves when the response can take more bytes, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
