import type { Disposable } from '../base';
import type { InformerState, KubeObject } from '../informer';
import type { BackoffOptions } from '../base/backoff';
import type { Clock } from '../base/clock';
import type { KubeTransport } from '../informer/transport';
import { containerRunOf } from './continuity';
import { LogFollower } from './log-follower';
import { containerEndedForGood, ownedByWorkload, podFinished, readableContainers, type WorkloadRef } from './workload-pods';

/**
 * A watch of objects the set reads: the pods of the workload, and for a Deployment its
 * ReplicaSets (an AdHocWatch of the manager is one).
 */
export interface ObjectFeed {
  readonly state: InformerState;
  /** Why it ended for good (the manager stopped, the context went away); undefined while it runs. */
  readonly ended: string | undefined;
  /** Why its resource type is not resolved yet (unknown type, discovery failing), if it is not. */
  readonly problem?: string | undefined;
  list(): KubeObject[];
  onDidChange(listener: (change: string) => void): Disposable;
  /** Stops the watch; resolves once nothing of it runs. */
  dispose(): Promise<void>;
}

/** What the set asks to watch, in the workload's namespace, on the workload's context. */
export interface ObjectFeedRequest {
  readonly type: 'pods' | 'replicasets.apps';
  readonly namespace: string;
  readonly labelSelector: string;
  /** For the watch log: `logs deploy shop/web`. */
  readonly purpose: string;
}

/** One stream of the set: a container of a pod; `podIndex` numbers the pods in order of appearance (colours). */
export interface LogStreamId {
  readonly pod: string;
  readonly container: string;
  readonly podIndex: number;
}

/** Where the set writes. Every call is in order; nothing is written after `stop()`. */
export interface WorkloadLogSink {
  /** A log line of one stream, without its timestamp prefix, at most once. */
  line(stream: LogStreamId, text: string, timestamp: string | undefined): void;
  /** A stream's own note (reconnected, gap, lost lines, stopped, the log ended). */
  marker(stream: LogStreamId, text: string): void;
  /** A stream could not be opened and is tried again at `nextTryAt` (see LogSink.failed); without it, a marker per attempt. */
  failed?(stream: LogStreamId, reason: string, nextTryAt: number): void;
  /** A pod's streams start (`containers`: the ones started now). */
  podFollowed(pod: string, podIndex: number, containers: readonly string[]): void;
  /** A pod's streams stopped: the pod was deleted (or replaced), or no longer belongs to the workload. */
  podEnded(pod: string, podIndex: number, why: 'deleted' | 'left'): void;
  /** The streams not followed because of the cap (`pod/container`), each time that list changes (empty: all followed again). */
  leftOut(streams: readonly string[], maxStreams: number): void;
  /** A note about the set as a whole (waiting for the pod watch, the watch ended). */
  notice(text: string): void;
}

export interface WorkloadLogSetOptions {
  readonly transport: KubeTransport;
  readonly clock: Clock;
  /** Opens a watch on the workload's context (the manager's `watchAdHoc`). */
  readonly watch: (request: ObjectFeedRequest) => ObjectFeed;
  /** At most this many streams at once (kubectl's `--max-log-requests`); the rest are left out and said so. */
  readonly maxStreams: number;
  /** Containers already running when the set starts begin with their last N lines (kubectl's `--tail`). */
  readonly tailLines: number;
  /** When set, every container starts from the lines of the last N seconds (kubectl's `--since`), new pods too. */
  readonly sinceSeconds?: number;
  readonly backoff?: BackoffOptions;
  readonly silenceMs?: number;
}

/** The streams of one pod (keyed by uid, so a pod re-created under its name is a new one). */
interface PodStreams {
  readonly name: string;
  readonly index: number;
  pod: KubeObject;
  readonly followers: Map<string, LogFollower>;
  readonly runs: Promise<void>[];
  /** Set when the set stops its followers (deleted, left, stopped): then no "log ended" note. */
  stopping: boolean;
}

const REFUSED = new Set(['unauthorized', 'forbidden', 'not-found']);
/** Phases of a watch worth telling while the set waits for its first list. */
const TROUBLE = new Set([...REFUSED, 'unreachable', 'backing-off']);

/**
 * All containers of a workload's pods, as `kubectl logs -f KIND/NAME --all-containers --prefix`:
 * a watch of the pods matching its selector (kept to those it owns, through its ReplicaSets for
 * a Deployment) and one LogFollower per container that ran. A pod that appears is followed
 * from its start (those there at the start from their last `tailLines` lines); a pod that goes
 * stops its streams and says so; at most `maxStreams` streams, the rest said to be left out.
 *
 * Invariants: nothing starts before `start()` or after `stop()`; after `stop()` resolves no
 * stream, timer or watch of the set is left (`activeStreams` and `activeTimers` 0, its
 * watches disposed).
 */
export class WorkloadLogSet {
  private readonly pods = new Map<string, PodStreams>();
  private podFeed: ObjectFeed | undefined;
  private rsFeed: ObjectFeed | undefined;
  private subscriptions: Disposable[] = [];
  private nextIndex = 0;
  private started = false;
  private stopped = false;
  /** True once the pods' first complete list was seen: containers running then start from their tail. */
  private seenFirstList = false;
  private lastLeftOut = '';
  private lastNotice = '';
  private stopping: Promise<void> | undefined;

  constructor(
    readonly workload: WorkloadRef,
    private readonly sink: WorkloadLogSink,
    private readonly options: WorkloadLogSetOptions,
  ) {}

  get activeStreams(): number {
    let n = 0;
    for (const p of this.pods.values()) for (const f of p.followers.values()) n += f.activeStreams;
    return n;
  }

  get activeTimers(): number {
    let n = 0;
    for (const p of this.pods.values()) for (const f of p.followers.values()) n += f.activeTimers;
    return n;
  }

  /** Followers running now (not stopped), over every pod. */
  get runningFollowers(): number {
    let n = 0;
    for (const p of this.pods.values()) for (const f of p.followers.values()) if (!f.stopped) n++;
    return n;
  }

  /** The pods followed now, by name, in order of appearance. */
  get followedPods(): string[] {
    return [...this.pods.values()].map((p) => p.name);
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const { kind, namespace, name, selector } = this.workload;
    const purpose = `logs ${kind.toLowerCase()} ${namespace}/${name}`;
    this.podFeed = this.options.watch({ type: 'pods', namespace, labelSelector: selector, purpose });
    this.subscriptions.push(this.podFeed.onDidChange(() => this.reconcile()));
    if (kind === 'Deployment') {
      this.rsFeed = this.options.watch({ type: 'replicasets.apps', namespace, labelSelector: selector, purpose });
      this.subscriptions.push(this.rsFeed.onDidChange(() => this.reconcile()));
    }
    this.reconcile();
  }

  /** Stops every follower and watch; resolves once none of them runs. Safe twice. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.stopped = true;
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions = [];
    const runs: Promise<void>[] = [];
    for (const p of this.pods.values()) {
      p.stopping = true;
      for (const f of p.followers.values()) f.stop();
      runs.push(...p.runs);
    }
    const feeds = [this.podFeed, this.rsFeed].filter((f): f is ObjectFeed => f !== undefined);
    await Promise.allSettled([...runs, ...feeds.map((f) => f.dispose())]);
  }

  /**
   * The ReplicaSets that decide a Deployment's pods; undefined: they cannot be read now (refused,
   * ended, type not resolved: the selector decides until they can); 'wait': not listed yet.
   */
  private replicaSets(): readonly KubeObject[] | undefined | 'wait' {
    const feed = this.rsFeed;
    if (!feed) return undefined;
    if (feed.state.synced) return feed.list();
    if (feed.ended !== undefined || feed.problem !== undefined || REFUSED.has(feed.state.phase)) return undefined;
    return 'wait';
  }

  private notice(text: string): void {
    if (text === this.lastNotice) return;
    this.lastNotice = text;
    this.sink.notice(text);
  }

  /** Brings the followers in line with the pods the watches report now. */
  private reconcile(): void {
    const feed = this.podFeed;
    if (this.stopped || !feed) return;
    if (feed.ended !== undefined) {
      this.notice(`the watch of the pods ended (${feed.ended}): no new pod will be followed`);
      return;
    }
    if (!feed.state.synced) {
      if (TROUBLE.has(feed.state.phase)) this.notice(`waiting for the pods: ${feed.state.phase}${feed.state.reason ? ` (${feed.state.reason})` : ''}`);
      return;
    }
    const replicaSets = this.replicaSets();
    if (replicaSets === 'wait') return;
    const initial = !this.seenFirstList;
    this.seenFirstList = true;

    const present = new Map<string, KubeObject>();
    const owned = new Map<string, KubeObject>();
    for (const pod of feed.list()) {
      const key = pod.metadata.uid || pod.metadata.name || '';
      present.set(key, pod);
      if (ownedByWorkload(pod, this.workload, replicaSets)) owned.set(key, pod);
    }

    for (const [key, streams] of [...this.pods]) {
      const pod = owned.get(key);
      if (pod) {
        streams.pod = pod;
        continue;
      }
      this.pods.delete(key);
      streams.stopping = true;
      for (const f of streams.followers.values()) f.stop();
      this.sink.podEnded(streams.name, streams.index, present.has(key) ? 'left' : 'deleted');
    }

    const ordered = [...owned].sort(([, a], [, b]) => creationOrder(a, b));
    let running = this.runningFollowers;
    const leftOut: string[] = [];
    for (const [key, pod] of ordered) {
      const name = pod.metadata.name ?? '';
      let streams = this.pods.get(key);
      const started: string[] = [];
      for (const container of readableContainers(pod)) {
        if (streams?.followers.has(container)) continue;
        if (running >= this.options.maxStreams) {
          leftOut.push(`${name}/${container}`);
          continue;
        }
        if (!streams) {
          streams = { name, index: this.nextIndex++, pod, followers: new Map(), runs: [], stopping: false };
          this.pods.set(key, streams);
        }
        this.follow(streams, container, initial ? this.options.tailLines : undefined);
        started.push(container);
        running++;
      }
      if (streams && started.length > 0) this.sink.podFollowed(name, streams.index, started);
    }
    const leftOutKey = leftOut.join('\n');
    if (leftOutKey !== this.lastLeftOut) {
      this.lastLeftOut = leftOutKey;
      this.sink.leftOut(leftOut, this.options.maxStreams);
    }
  }

  private follow(streams: PodStreams, container: string, tailLines: number | undefined): void {
    const id: LogStreamId = { pod: streams.name, container, podIndex: streams.index };
    const { namespace } = this.workload;
    const follower = new LogFollower(
      { namespace, pod: streams.name, container, tailLines, sinceSeconds: this.options.sinceSeconds },
      {
        line: (text, timestamp) => {
          if (!this.stopped) this.sink.line(id, text, timestamp);
        },
        marker: (text) => {
          if (!this.stopped && !streams.stopping) this.sink.marker(id, text);
        },
        ...(this.sink.failed
          ? {
              failed: (reason: string, nextTryAt: number) => {
                if (!this.stopped && !streams.stopping) this.sink.failed?.(id, reason, nextTryAt);
              },
            }
          : {}),
      },
      {
        transport: this.options.transport,
        clock: this.options.clock,
        backoff: this.options.backoff,
        silenceMs: this.options.silenceMs,
        currentRun: () => containerRunOf(streams.pod, container),
        endedForGood: () => podFinished(streams.pod) || containerEndedForGood(streams.pod, container),
      },
    );
    streams.followers.set(container, follower);
    streams.runs.push(
      follower.start().then(() => {
        if (!this.stopped && !streams.stopping) this.sink.marker(id, 'the log ended');
      }),
    );
  }
}

/** Oldest first (creationTimestamp), then by name: the order kubectl lists pods in. */
function creationOrder(a: KubeObject, b: KubeObject): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
