/**
 * One client process: ours (Informer over KubeConfigTransport), the reference (makeInformer with
 * the typed API's unpaginated list call), or the limit (a bare loop over the same bytes with one
 * JSON.parse per line or per list body). A fresh process per measured run, so heaps never mix.
 */
import * as https from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { Informer } from '../../src/informer';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { acceleratedClock, systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { HealthRecorder } from '../../src/health';
import { HealthFeed, HealthViewModel, markerLine } from '../../src/ui/health';
import { WatchTreeModel, type TreeNode } from '../../src/ui/tree';
import { StatusBarFeed } from '../../src/ui/status';
import { collectionPath, type ResourceSpec } from './datasets';
import { benchResource } from './resources';
import { note, serveRpc } from './rpc';
import { helmList } from './helm-client';
import { bareGet, measureSync, streamingListFloor, type Conn, type SyncResult } from './sync-measure';

export type { Conn, SyncResult } from './sync-measure';

export type ClientKind = 'ours' | 'reference' | 'limit';

/** How our informer makes its initial list: paginated LIST, or one streaming list (WatchList). */
export type SyncPath = 'list' | 'watchlist';

export interface SyncTask {
  kind: ClientKind;
  conn: Conn;
  spec: ResourceSpec;
  namespace?: string;
  expect: number;
  /** Ours only; default 'list'. */
  path?: SyncPath;
}

export interface StreamTask {
  kind: ClientKind;
  conn: Conn;
  spec: ResourceSpec;
  namespace: string;
  events: number;
  fromRv: string;
  /** Ours only; default 'list'. */
  path?: SyncPath;
}

export interface StreamResult {
  eventsPerSecond: number;
  ms: number;
}

export interface ManyTask {
  kind: 'ours' | 'reference';
  conn: Conn;
  /** One informer per (type, namespace) pair. */
  watches: { spec: ResourceSpec; namespace: string }[];
  /** Time runs this many times faster (0 or 1 = real time). */
  scale?: number;
  /** The reference restarts this long after an 'error' event, as its informer example does. */
  restartOnErrorMs?: number;
  /** Ours only: the initial-list path; default 'auto'. */
  path?: SyncPath;
}

function kubeConfig(conn: Conn): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'bench', server: conn.url, caData: Buffer.from(conn.caPem).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'bench', token: `bench-${conn.label}` }],
    contexts: [{ name: 'bench', cluster: 'bench', user: 'bench' }],
    currentContext: 'bench',
  });
  return kc;
}

type RefInformer = ReturnType<typeof makeInformer<KubernetesObject>>;

function reference(kc: KubeConfig, spec: ResourceSpec, namespace: string | undefined): RefInformer {
  const list = benchResource(spec).list(kc, namespace);
  return makeInformer<KubernetesObject>(kc, collectionPath(spec, namespace), list as never);
}

let keep: unknown[] = [];

async function sync(t: SyncTask): Promise<SyncResult> {
  let start: () => Promise<number>;
  if (t.kind === 'ours') {
    const kc = kubeConfig(t.conn);
    const streamingList = t.path === 'watchlist' ? 'always' : 'never';
    const informer = new Informer({ transport: new KubeConfigTransport(kc), type: t.spec, namespace: t.namespace, streamingList });
    // A handler like the reference's 'add' listener, so both deliver every object to someone.
    let adds = 0;
    informer.addHandler({ onAdd: () => void adds++ });
    let pages = 0;
    informer.onLifecycle((e) => {
      if (e.type === 'list-page' && ++pages % 20 === 0) note(`${pages} pages`);
    });
    keep.push(informer);
    start = async () => {
      informer.start();
      await informer.waitForSync(3_600_000);
      return Math.min(adds, informer.store.size);
    };
  } else if (t.kind === 'reference') {
    const informer = reference(kubeConfig(t.conn), t.spec, t.namespace);
    keep.push(informer);
    start = () =>
      new Promise<number>((resolve, reject) => {
        let adds = 0;
        informer.on('add', () => {
          if (++adds === t.expect) resolve(adds);
        });
        informer.on('error', (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))));
        void informer.start();
      });
  } else if (t.path === 'watchlist') {
    start = streamingListFloor(t.conn, t.spec, t.namespace, keep);
  } else {
    const agent = new https.Agent({ keepAlive: true, ca: t.conn.caPem });
    start = async () => {
      const res = await bareGet(t.conn, agent, collectionPath(t.spec, t.namespace));
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { items: unknown[] };
      keep.push(list);
      return list.items.length;
    };
  }
  return measureSync(t.kind, t.expect, start);
}

async function stream(t: StreamTask): Promise<StreamResult> {
  let first = 0;
  let last = 0;
  let n = 0;
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const step = Math.max(1, Math.floor(t.events / 10));
  const onEvent = () => {
    if (n === 0) first = performance.now();
    n++;
    if (n % step === 0) note(`${n} events`);
    if (n === t.events) {
      last = performance.now();
      resolve();
    }
  };
  if (t.kind === 'ours') {
    const streamingList = t.path === 'watchlist' ? 'always' : 'never';
    const informer = new Informer({ transport: new KubeConfigTransport(kubeConfig(t.conn)), type: t.spec, namespace: t.namespace, streamingList });
    informer.addHandler({ onUpdate: onEvent });
    informer.start();
    await done;
    await informer.stop();
  } else if (t.kind === 'reference') {
    const informer = reference(kubeConfig(t.conn), t.spec, t.namespace);
    informer.on('update', onEvent);
    void informer.start();
    await done;
    await informer.stop();
  } else {
    const agent = new https.Agent({ keepAlive: true, ca: t.conn.caPem });
    const res = await bareGet(t.conn, agent, `${collectionPath(t.spec, t.namespace)}?watch=true&allowWatchBookmarks=true&resourceVersion=${t.fromRv}`);
    // Only a line cut by a chunk boundary is copied; every other line is decoded in place.
    let rest: Buffer | undefined;
    res.on('data', (chunk: Buffer) => {
      let s = 0;
      let nl = chunk.indexOf(10);
      if (rest) {
        if (nl === -1) {
          rest = Buffer.concat([rest, chunk]);
          return;
        }
        const line = Buffer.concat([rest, chunk.subarray(0, nl)]);
        rest = undefined;
        if (line.length > 0) {
          JSON.parse(line.toString('utf8'));
          onEvent();
        }
        s = nl + 1;
        nl = chunk.indexOf(10, s);
      }
      while (nl !== -1) {
        if (nl > s) {
          JSON.parse(chunk.toString('utf8', s, nl));
          onEvent();
        }
        s = nl + 1;
        nl = chunk.indexOf(10, s);
      }
      if (s < chunk.length) rest = chunk.subarray(s);
    });
    await done;
    res.destroy();
  }
  return { eventsPerSecond: ((t.events - 1) / (last - first)) * 1000, ms: last - first };
}

let stopMany: (() => Promise<void>) | undefined;

async function startMany(t: ManyTask): Promise<null> {
  const scale = t.scale && t.scale > 1 ? t.scale : 1;
  const kc = kubeConfig(t.conn);
  if (t.kind === 'ours') {
    const transport = new KubeConfigTransport(kc);
    const clock = scale > 1 ? acceleratedClock(scale) : undefined;
    const streamingList = t.path === undefined ? 'auto' : t.path === 'watchlist' ? 'always' : 'never';
    const informers = t.watches.map((w) => new Informer({ transport, type: w.spec, namespace: w.namespace, clock, streamingList }));
    for (const i of informers) i.start();
    stopMany = async () => {
      await Promise.all(informers.map((i) => i.stop()));
      transport.dispose();
    };
  } else {
    const timers = new Set<NodeJS.Timeout>();
    let stopped = false;
    const informers = t.watches.map((w) => {
      const informer = reference(kc, w.spec, w.namespace);
      // The Watch's private 30 s inactivity timeout, scaled like everything else in the run.
      (informer as unknown as { watch: { requestTimeoutMs: number } }).watch.requestTimeoutMs = 30_000 / scale;
      informer.on('error', () => {
        if (t.restartOnErrorMs === undefined || stopped) return;
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!stopped) void informer.start();
        }, t.restartOnErrorMs / scale);
        timers.add(timer);
      });
      return informer;
    });
    for (const i of informers) void i.start();
    stopMany = async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(informers.map((i) => i.stop()));
    };
  }
  return null;
}

export interface TreeTask {
  conn: Conn;
  /** kubectl spellings, watched in all namespaces. */
  resources: string[];
  /** The initial-list path; default 'auto'. */
  path?: SyncPath;
}

export interface TreeResult {
  seconds: number;
  events: number;
  refreshes: number;
  untargetedRefreshes: number;
  nodesRefreshed: number;
  /** Time spent answering refreshes the way VS Code asks (getChildren, rows), per second. */
  renderMsPerSecond: number;
  /** Refreshes per second between the first and the last refresh of the window. */
  refreshRate: number;
  /** Status bar draws in the window (the StatusBarFeed drawn with the tree, as the extension wires it). */
  statusDraws: number;
  /** Time spent computing the status bar with the tree's refreshes, per second. */
  statusMsPerSecond: number;
}

let tree: { manager: WatchManager; model: WatchTreeModel; feed: StatusBarFeed; dir: string; events: number; renderMs: number; statusMs: number; at: number[] } | undefined;

/** What VS Code does on a refresh: the rows of the named nodes and of their children (all expanded); everything for `undefined`. */
function answerRefresh(model: WatchTreeModel, nodes: TreeNode[] | undefined): void {
  if (!nodes) {
    const walk = (node?: TreeNode) => {
      for (const child of model.getChildren(node)) {
        model.present(child);
        walk(child);
      }
    };
    walk();
    return;
  }
  for (const node of nodes) {
    model.present(node);
    for (const child of model.getChildren(node)) model.present(child);
  }
}

async function treeStart(t: TreeTask): Promise<{ objects: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kw-bench-'));
  const path = join(dir, 'config');
  writeFileSync(path, kubeConfig(t.conn).exportConfig());
  const streamingList = t.path === undefined ? undefined : t.path === 'watchlist' ? 'always' : 'never';
  const manager = new WatchManager({ contexts: [], resources: t.resources, namespaces: [], kubeconfigPath: path, streamingList });
  const model = new WatchTreeModel(manager);
  const timing = { statusMs: 0 };
  // The status bar as the extension wires it: drawn with the tree's refreshes (its cost is timed).
  const feed = new StatusBarFeed(manager, systemClock, () => undefined, {
    viewChanges: (listener) =>
      model.onDidChange(() => {
        const t0 = performance.now();
        listener();
        timing.statusMs += performance.now() - t0;
      }),
  });
  const state = {
    manager,
    model,
    feed,
    dir,
    events: 0,
    renderMs: 0,
    get statusMs() {
      return timing.statusMs;
    },
    at: [] as number[],
  };
  tree = state;
  manager.addHandler({ onUpdate: () => state.events++ });
  model.onDidChange((nodes) => {
    const t0 = performance.now();
    state.at.push(Date.now()); // the model's clock (its throttle spaces refreshes on it)
    answerRefresh(model, nodes);
    state.renderMs += performance.now() - t0;
  });
  await manager.start();
  const deadline = performance.now() + 60_000;
  while (!manager.entries().every((e) => e.state.phase === 'watching' && e.state.synced)) {
    if (performance.now() > deadline) throw new Error(`the watches did not sync: ${JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase, e.error]))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  answerRefresh(model, undefined); // the view shows the whole tree once
  await new Promise((r) => setTimeout(r, 1500)); // let the first refreshes after sync settle
  return { objects: manager.entries().reduce((n, e) => n + (e.informer?.store.size ?? 0), 0) };
}

async function treeMeasure(p: { durationMs: number }): Promise<TreeResult> {
  const s = tree!;
  const before = s.model.refreshCounters;
  const events0 = s.events;
  const render0 = s.renderMs;
  const draws0 = s.feed.draws;
  const status0 = s.statusMs;
  const t0 = performance.now();
  const wall0 = Date.now();
  await new Promise((r) => setTimeout(r, p.durationMs));
  const seconds = (performance.now() - t0) / 1000;
  const after = s.model.refreshCounters;
  const at = s.at.filter((x) => x >= wall0);
  const refreshRate = at.length > 1 ? ((at.length - 1) / (at[at.length - 1] - at[0])) * 1000 : at.length / seconds;
  return {
    seconds,
    events: s.events - events0,
    refreshes: after.refreshes - before.refreshes,
    untargetedRefreshes: after.untargetedRefreshes - before.untargetedRefreshes,
    nodesRefreshed: after.nodesRefreshed - before.nodesRefreshed,
    renderMsPerSecond: (s.renderMs - render0) / seconds,
    refreshRate,
    statusDraws: s.feed.draws - draws0,
    statusMsPerSecond: (s.statusMs - status0) / seconds,
  };
}

export interface HealthTask {
  conn: Conn;
  resources: string[];
}

export interface HealthWindow {
  /** Process CPU (user + system) over the window, milliseconds. */
  cpuMs: number;
  seconds: number;
  events: number;
  snapshots: number;
  /** Time spent building and serialising snapshots (inside the CPU above), milliseconds. */
  snapshotMs: number;
  bytesPerSnapshot: number;
}

/**
 * B9: one WatchManager under churn; the Watch Health recorder and an open panel's feed are
 * switched on and off between measuring windows, so that the two modes see the same load in the
 * same process. The feed's messages are serialised the way VS Code's postMessage does (JSON).
 */
let health:
  | {
      manager: WatchManager;
      dir: string;
      events: number;
      panel?: { recorder: HealthRecorder; feed: HealthFeed };
      snapshots: number;
      snapshotMs: number;
      bytes: number;
    }
  | undefined;

async function healthStart(t: HealthTask): Promise<{ objects: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kw-bench-'));
  const path = join(dir, 'config');
  writeFileSync(path, kubeConfig(t.conn).exportConfig());
  const manager = new WatchManager({ contexts: [], resources: t.resources, namespaces: [], kubeconfigPath: path });
  const state: NonNullable<typeof health> = { manager, dir, events: 0, snapshots: 0, snapshotMs: 0, bytes: 0 };
  health = state;
  manager.addHandler({ onUpdate: () => state.events++ });
  await manager.start();
  const deadline = performance.now() + 60_000;
  while (!manager.entries().every((e) => e.state.phase === 'watching' && e.state.synced)) {
    if (performance.now() > deadline) throw new Error(`the watches did not sync: ${JSON.stringify(manager.entries().map((e) => [e.label, e.state.phase, e.error]))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { objects: manager.entries().reduce((n, e) => n + (e.informer?.store.size ?? 0), 0) };
}

function healthPanel(p: { on: boolean }): null {
  const s = health!;
  if (p.on && !s.panel) {
    const recorder = new HealthRecorder(s.manager, { clock: systemClock, lineOf: markerLine });
    const model = new HealthViewModel(recorder, () => s.manager.entries());
    const feed = new HealthFeed(
      recorder,
      (now) => {
        const t0 = performance.now();
        const snapshot = model.snapshot(now);
        s.bytes += JSON.stringify(snapshot).length; // what postMessage serialises
        s.snapshotMs += performance.now() - t0;
        s.snapshots++;
        return snapshot;
      },
      () => undefined,
      systemClock,
    );
    feed.start();
    s.panel = { recorder, feed };
  } else if (!p.on && s.panel) {
    s.panel.feed.dispose();
    s.panel.recorder.dispose();
    s.panel = undefined;
  }
  return null;
}

async function healthMeasure(p: { durationMs: number }): Promise<HealthWindow> {
  const s = health!;
  const events0 = s.events;
  const snapshots0 = s.snapshots;
  const snapshotMs0 = s.snapshotMs;
  const bytes0 = s.bytes;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, p.durationMs));
  const cpu = process.cpuUsage(cpu0);
  const snapshots = s.snapshots - snapshots0;
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    seconds: (performance.now() - t0) / 1000,
    events: s.events - events0,
    snapshots,
    snapshotMs: s.snapshotMs - snapshotMs0,
    bytesPerSnapshot: snapshots > 0 ? (s.bytes - bytes0) / snapshots : 0,
  };
}

serveRpc({
  sync,
  helmList,
  healthStart,
  healthPanel,
  healthMeasure,
  async healthStop() {
    if (health) {
      healthPanel({ on: false });
      await health.manager.stop();
      rmSync(health.dir, { recursive: true, force: true });
      health = undefined;
    }
    return null;
  },
  treeStart,
  treeMeasure,
  async treeStop() {
    if (tree) {
      tree.feed.dispose();
      tree.model.dispose();
      await tree.manager.stop();
      rmSync(tree.dir, { recursive: true, force: true });
      tree = undefined;
    }
    return null;
  },
  stream,
  startMany,
  async stopMany() {
    await stopMany?.();
    stopMany = undefined;
    keep = [];
    return null;
  },
});
