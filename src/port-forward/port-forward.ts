import type { Socket } from 'node:net';
import { ApiError, Emitter, type Clock, type Disposable } from '../base';
import type { InformerState, KubeObject, KubeTransport } from '../informer';
import type { ObjectFeed } from '../logs/workload-log-set';
import { PortForwardStream } from '../connection/streaming/port-forward-stream';
import { ConnectionRelay, type RelayEnd } from './connection-relay';
import { ConnectionTally } from './connection-tally';
import type { ForwardPhase, ForwardResources, ForwardStatus } from './forward-status';
import { describeSpec, podPortOn, resolveTarget, targetPath, type ForwardSpec, type ResolvedTarget } from './forward-target';
import { bindLocal, type BoundListener } from './local-listener';
import { usablePods, type UsablePod } from './ready-pods';
import { refusalReason, refuseWithMessage } from './refusal';
import { WaitingConnections } from './waiting-connections';

export type { ForwardPhase, ForwardResources, ForwardStatus } from './forward-status';

/** A watch the forward asks for, on its context (the manager's `watchAdHoc`). */
export interface ForwardFeedRequest {
  readonly type: 'pods' | 'replicasets.apps' | 'endpointslices.discovery.k8s.io';
  readonly namespace: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly purpose: string;
}

export interface PortForwardOptions {
  readonly transport: KubeTransport;
  readonly clock: Clock;
  readonly watch: (request: ForwardFeedRequest) => ObjectFeed;
  /** How long a connection waits for a ready pod before it is refused; default 30 s. */
  readonly waitForPodMs?: number;
  /** How long `start` waits for the first list of the pods; default 30 s. */
  readonly firstListMs?: number;
}

/** A relay's end with an error within this long before its pod is switched away counts as cut by the switch (the server may end the stream before the watch tells). */
const SWITCH_GRACE_MS = 10_000;

/**
 * One port-forward that follows its pods (kubectl `port-forward TYPE/NAME PORT`, except that it
 * never picks one pod for good): a local port that stays bound while the forward lives; each
 * local connection opens its own stream to the pod current at that moment. The pods come from
 * the manager's watches (the pod itself, a workload's owned pods, a Service's pods and its
 * EndpointSlices), so when the pod goes away or stops being ready new connections go to another
 * ready pod (a Running pod that is not Ready when there is none, as kubectl allows: W14);
 * connections in flight on a deleted pod end and are counted; with no running pod a connection
 * waits up to `waitForPodMs`, then is refused with a message. The phase follows what connections
 * meet: `failing` while the pod's port refuses them, `ready` again once one is answered.
 *
 * Invariants: `start` either resolves with the forward bound, or rejects with one line and
 * leaves nothing bound, watched or open; after `stop` resolves, `resources` is all zeros.
 */
export class PortForward implements Disposable {
  private readonly changes = new Emitter<ForwardStatus>();
  private readonly events = new Emitter<string>();
  private target: ResolvedTarget | undefined;
  private listener: BoundListener | undefined;
  private feeds: { pods?: ObjectFeed; rs?: ObjectFeed; slices?: ObjectFeed } = {};
  private subscriptions: Disposable[] = [];
  private readonly relays = new Set<ConnectionRelay>();
  private readonly opening = new Map<Socket, AbortController>();
  private readonly waiting: WaitingConnections;
  /** Connections whose stream could not be opened, waiting (1 s at most) for the request to answer with a 503. */
  private readonly answering: WaitingConnections;
  private current: { name: string; uid: string; port: number; ready: boolean } | undefined;
  private readonly tally: ConnectionTally;
  private phase: ForwardPhase = 'starting';
  private reason: string | undefined;
  private since: number;
  private lastError: string | undefined;
  private stopped = false;
  /** Pods the server said are gone (404) before the watch did: not chosen until the watch catches up. */
  private readonly goneUids = new Set<string>();
  /** Why the running pods take no connection (none has the named port), while that is so. */
  private portless: string | undefined;

  constructor(
    readonly spec: ForwardSpec,
    private readonly options: PortForwardOptions,
  ) {
    this.since = options.clock.now();
    this.waiting = new WaitingConnections(options.clock, options.waitForPodMs ?? 30_000);
    this.answering = new WaitingConnections(options.clock, 1000);
    this.tally = new ConnectionTally(options.clock, SWITCH_GRACE_MS);
  }

  /** `svc/web 80` */
  get label(): string {
    return describeSpec(this.spec);
  }

  get status(): ForwardStatus {
    const l = this.listener;
    return {
      phase: this.phase,
      ...(this.reason ? { reason: this.reason } : {}),
      since: this.since,
      localAddress: l?.address ?? this.spec.address ?? '127.0.0.1',
      localPort: l?.port ?? 0,
      ...(this.current ? { pod: this.current.name, podPort: this.current.port, podReady: this.current.ready } : {}),
      open: [...this.relays].filter((r) => !r.clientDone).length + this.opening.size + this.waiting.size,
      ...this.tally.counts,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  get resources(): ForwardResources {
    return {
      listeners: this.listener?.server.listening ? 1 : 0,
      streams: this.relays.size + this.opening.size,
      sockets: this.relays.size + this.opening.size + this.waiting.size + this.answering.size,
      timers: this.waiting.size + this.answering.size,
      watches: Object.values(this.feeds).filter(Boolean).length,
    };
  }

  /** The local port was taken, so another was chosen. */
  get chosenInstead(): boolean {
    return this.listener?.chosenInstead ?? false;
  }

  onDidChange(listener: (status: ForwardStatus) => void): Disposable {
    return this.changes.on(listener);
  }

  /** One line per thing worth telling (a pod switch, a refused connection). */
  onEvent(listener: (line: string) => void): Disposable {
    return this.events.on(listener);
  }

  /**
   * Resolves the target, starts the watches of its pods, checks that the server lets us forward
   * (one stream to the first ready pod, closed at once), then binds the local port.
   */
  async start(signal?: AbortSignal): Promise<void> {
    try {
      const { transport } = this.options;
      const ctl = new AbortController();
      const abort = () => ctl.abort(signal?.reason);
      signal?.addEventListener('abort', abort, { once: true });
      const what = `${this.spec.kind} ${this.spec.namespace}/${this.spec.name}`;
      let obj: KubeObject;
      try {
        obj = await transport.getJson<KubeObject>(targetPath(this.spec), {}, ctl.signal);
      } catch (err) {
        throw new Error(err instanceof ApiError && err.code === 404 ? `${what} not found` : `cannot read ${what}: ${messageOf(err)}`);
      } finally {
        signal?.removeEventListener('abort', abort);
      }
      const target = resolveTarget(this.spec, obj);
      if (typeof target === 'string') throw new Error(target);
      this.target = target;
      this.startFeeds(target);
      await this.firstList();
      const pods = this.candidates();
      if (pods.length > 0) {
        const port = this.portOn(pods[0].pod);
        if (typeof port === 'string') throw new Error(port);
        await this.probe(pods[0].pod.metadata.name ?? '', port);
      }
      const localPort = this.spec.localPort ?? target.suggestedLocalPort;
      this.listener = await bindLocal(this.spec.address ?? '127.0.0.1', localPort, this.spec.exactLocalPort ?? false, (s) => this.accept(s));
      if (this.stopped) throw new Error('stopped');
      this.reconcile();
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** Stops listening, ends every connection, timer and watch; resolves once none is left. */
  async stop(): Promise<void> {
    const wasStopped = this.stopped;
    this.stopped = true;
    const server = this.listener?.server;
    // close() resolves once every accepted connection ended: end them right after asking.
    const closed = server?.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    this.waiting.clear();
    this.answering.clear();
    for (const ctl of this.opening.values()) ctl.abort(new Error('the forward stopped'));
    for (const r of [...this.relays]) r.cut('the forward stopped');
    await closed;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    const feeds = Object.values(this.feeds).filter((f): f is ObjectFeed => f !== undefined);
    this.feeds = {};
    await Promise.allSettled(feeds.map((f) => f.dispose()));
    if (!wasStopped) this.setPhase('stopped', undefined);
    this.changes.dispose();
    this.events.dispose();
  }

  dispose(): void {
    void this.stop();
  }

  private startFeeds(target: ResolvedTarget): void {
    const { namespace } = this.spec;
    const purpose = `port-forward ${this.label}`;
    const watch = (request: ForwardFeedRequest) => {
      const feed = this.options.watch(request);
      this.subscriptions.push(feed.onDidChange(() => this.reconcile()));
      return feed;
    };
    this.feeds.pods = target.selector
      ? watch({ type: 'pods', namespace, labelSelector: target.selector, purpose })
      : watch({ type: 'pods', namespace, fieldSelector: `metadata.name=${this.spec.name}`, purpose });
    if (this.spec.kind === 'Deployment') this.feeds.rs = watch({ type: 'replicasets.apps', namespace, labelSelector: target.selector, purpose });
    if (target.service) this.feeds.slices = watch({ type: 'endpointslices.discovery.k8s.io', namespace, labelSelector: `kubernetes.io/service-name=${target.service}`, purpose });
  }

  /** Waits (bounded) for the pods' first list, so the first connection finds its pod. */
  private async firstList(): Promise<void> {
    const feed = this.feeds.pods!;
    const limit = this.options.firstListMs ?? 30_000;
    await new Promise<void>((resolve) => {
      const done = () => {
        timer.cancel();
        sub.dispose();
        resolve();
      };
      const check = () => {
        if (feed.state.synced || feed.ended !== undefined || this.stopped || ['forbidden', 'unauthorized'].includes(feed.state.phase)) done();
      };
      const timer = this.options.clock.setTimer(done, limit);
      const sub = feed.onDidChange(check);
      check();
    });
    if (['forbidden', 'unauthorized'].includes(feed.state.phase)) throw new Error(`cannot watch the pods of ${this.label}: ${feed.state.reason ?? feed.state.phase}`);
  }

  /** The pods new connections may go to, the Ready ones first (W14: a Running pod that is not Ready is used when no Ready one is there). */
  private candidates(): UsablePod[] {
    if (!this.target || !this.feeds.pods) return [];
    const replicaSets = this.feeds.rs?.state.synced ? this.feeds.rs.list() : undefined;
    const pods = this.feeds.pods.list();
    for (const uid of [...this.goneUids]) if (!pods.some((p) => p.metadata.uid === uid)) this.goneUids.delete(uid);
    const usable = usablePods(this.target, { pods, replicaSets, slices: this.feeds.slices?.list() ?? [] }).filter((p) => !this.goneUids.has(p.pod.metadata.uid ?? ''));
    const withPort = usable.filter((p) => typeof this.portOn(p.pod) === 'number');
    this.portless = withPort.length === 0 && usable.length > 0 ? (this.portOn(usable[0].pod) as string) : undefined;
    return withPort;
  }

  /**
   * The pod port new connections go to on `pod`, or why it has none. A number is taken as it is,
   * declared or not, as kubectl does for a Service's or workload's pods (the pod refuses it if
   * nothing listens: the forward then reads failing, with the pod's words); a name must be one of
   * the pod's declared ports.
   */
  private portOn(pod: KubeObject): number | string {
    const port = this.target!.podPort;
    return typeof port === 'number' ? port : podPortOn(pod, port);
  }

  /** One stream to the pod, closed at once: a refused `pods/portforward` reads as the server's words before anything is bound. */
  private async probe(pod: string, port: number): Promise<void> {
    const ctl = new AbortController();
    const timer = this.options.clock.setTimer(() => ctl.abort(new Error('the server did not answer the port-forward within 30 s')), 30_000);
    try {
      const stream = await PortForwardStream.open(this.options.transport, { namespace: this.spec.namespace, pod, port }, ctl.signal);
      stream.destroy();
    } catch (err) {
      throw new Error(err instanceof ApiError && err.code === 403 ? `the server refuses to forward ports of pod ${pod}: ${err.message}` : `cannot forward to pod ${pod} port ${port}: ${messageOf(err)}`);
    } finally {
      timer.cancel();
    }
  }

  /** The watches changed: choose the pod for new connections, hand waiting connections to it. */
  private reconcile(): void {
    if (this.stopped || !this.listener) return;
    const pods = this.candidates();
    // Stay on the pod while it is one of the best there are (a Ready pod displaces one that is not).
    const kept = this.current && pods.find((p) => p.pod.metadata.uid === this.current!.uid && p.ready === pods[0].ready);
    const previous = this.current;
    if (kept) this.current = { ...this.current!, ready: kept.ready };
    else {
      const next = pods[0];
      this.current = next ? { name: next.pod.metadata.name ?? '', uid: next.pod.metadata.uid ?? '', port: this.portOn(next.pod) as number, ready: next.ready } : undefined;
      if (previous) this.switchedFrom(previous);
    }
    this.updatePhase();
    if (this.current) this.waiting.releaseAll((socket) => void this.connect(socket));
    this.changes.fire(this.status);
  }

  /** The phase from the pod watch, the pod chosen and what its last connection met. */
  private updatePhase(): void {
    const feed = this.feeds.pods;
    if (!feed) return;
    const watchTrouble = feed.ended ?? (feed.state.phase !== 'watching' && feed.state.phase !== 'listing' ? describeState(feed.state) : undefined);
    const podTrouble = this.tally.troubleOf(this.current?.uid);
    // While the pod watch is down, connections still go to the last pod known ready (if any).
    if (watchTrouble) this.setPhase('reconnecting', `the pod watch is ${watchTrouble}${this.current ? `; connections go to pod ${this.current.name}, the last known ready` : ''}`);
    else if (podTrouble) this.setPhase('failing', podTrouble.reason);
    else if (this.current?.ready === false) this.setPhase('ready', `pod ${this.current.name} is Running but not Ready${this.spec.kind === 'Pod' ? '' : ` (no Ready pod of ${this.label})`}`);
    else if (this.current) this.setPhase('ready', undefined);
    else this.setPhase('waiting', this.portless ? `no running pod of ${this.label} has its port: ${this.portless}` : `no running pod of ${this.label}`);
  }

  /** The pod `previous` no longer takes new connections: its connections end if it is gone; those the client still used count as cut. */
  private switchedFrom(previous: { name: string; uid: string }): void {
    const gone = !this.feeds.pods!.list().some((p) => p.metadata.uid === previous.uid && !p.metadata.deletionTimestamp);
    let cut = 0;
    if (gone) {
      for (const r of [...this.relays]) {
        if (r.pod !== previous.uid) continue;
        if (!r.clientDone) cut++;
        r.cut(`pod ${previous.name} was deleted`);
      }
    }
    cut += this.tally.switchedFrom(previous.uid);
    const next = this.current ? `new connections go to pod ${this.current.name}${this.current.ready ? '' : ' (Running, not Ready)'}` : 'connections wait for a running pod';
    const why = gone ? 'was deleted' : 'is not ready';
    this.events.fire(`pod ${previous.name} ${why}: ${next}${cut ? `; ${cut} connection${cut === 1 ? '' : 's'} in flight ended` : ''}`);
  }

  private setPhase(phase: ForwardPhase, reason: string | undefined): void {
    if (phase === this.phase && reason === this.reason) return;
    this.phase = phase;
    this.reason = reason;
    this.since = this.options.clock.now();
  }

  private accept(socket: Socket): void {
    socket.on('error', () => undefined);
    if (this.stopped) return void socket.destroy();
    if (this.current) return void this.connect(socket);
    this.wait(socket);
  }

  /** Holds `socket` until a pod is ready, at most `waitForPodMs`, then refuses it with a message. */
  private wait(socket: Socket): void {
    const waitMs = this.options.waitForPodMs ?? 30_000;
    this.waiting.add(socket, (s, received) => {
      this.tally.refused();
      const message = `no running pod of ${this.label} within ${Math.round(waitMs / 1000)} s: connection refused`;
      this.lastError = message;
      this.events.fire(message);
      refuseWithMessage(s, received, `Kube Watch port-forward ${this.label}: ${message}\n`);
      this.changes.fire(this.status);
    });
    this.changes.fire(this.status);
  }

  /** Opens a stream to the current pod for `socket` and relays it; a pod gone meanwhile is retried once with the next. */
  private async connect(socket: Socket, retried = false): Promise<void> {
    const pod = this.current!;
    const ctl = new AbortController();
    this.opening.set(socket, ctl);
    const onClose = () => ctl.abort(new Error('the client closed the connection'));
    socket.once('close', onClose);
    let stream: PortForwardStream;
    try {
      stream = await PortForwardStream.open(this.options.transport, { namespace: this.spec.namespace, pod: pod.name, port: pod.port }, ctl.signal);
    } catch (err) {
      this.opening.delete(socket);
      socket.off('close', onClose);
      if (this.stopped || ctl.signal.aborted) return void socket.destroy();
      if (!retried && err instanceof ApiError && err.code === 404) {
        // The pod is gone and the watch has not said so yet: another pod, or wait for one.
        this.goneUids.add(pod.uid);
        this.reconcile();
        if (this.current) return this.connect(socket, true);
        return this.wait(socket);
      }
      const reason = `connections to pod ${pod.name} port ${pod.port} fail: ${messageOf(err)}`;
      this.answering.add(socket, (s, received) => refuseWithMessage(s, received, `Kube Watch port-forward ${this.label}: ${reason}\n`), true);
      this.podFailed(pod, reason, `a connection to pod ${pod.name} failed: ${messageOf(err)}`);
      return this.changes.fire(this.status);
    }
    this.opening.delete(socket);
    socket.off('close', onClose);
    if (this.stopped || socket.destroyed) {
      stream.destroy();
      return void socket.destroy();
    }
    const relay = new ConnectionRelay(socket, stream, pod.uid, {
      onBytes: (inbound, outbound) => this.tally.bytes(inbound, outbound),
      onAnswered: () => this.podAnswered(pod.uid),
      onClientDone: () => {
        this.tally.served();
        this.changes.fire(this.status);
      },
      onEnd: (end) => {
        this.relays.delete(relay);
        this.relayEnded(pod, end);
      },
      clock: this.options.clock,
      failureAnswer: (error) => `Kube Watch port-forward ${this.label}: ${refusalReason(pod, error)}\n${error}\n`,
    });
    this.relays.add(relay);
    this.changes.fire(this.status);
  }

  /** Counts a relayed connection's end once (one the client finished was counted served then). */
  private relayEnded(pod: { name: string; uid: string; port: number }, end: RelayEnd): void {
    if (end.clientDone) return;
    if (!end.error) {
      this.tally.served();
      if (!end.byClient) this.podAnswered(pod.uid);
    } else if (this.current?.uid !== pod.uid) this.tally.interrupted();
    // The stream broke before the pod sent a byte: its port refuses (the kubelet's words say how).
    else if (!end.answered) this.podFailed(pod, refusalReason(pod, end.error), `pod ${pod.name}: ${end.error}`);
    else {
      this.tally.failedInFlight(pod.uid);
      this.lastError = `pod ${pod.name}: ${end.error}`;
    }
    this.changes.fire(this.status);
  }

  /** A connection to `pod` failed before the pod answered: the forward is failing; the log says so once, when it starts. */
  private podFailed(pod: { name: string; uid: string }, reason: string, detail: string): void {
    const already = this.tally.troubleOf(pod.uid);
    this.lastError = detail;
    this.tally.failedAtPod(pod.uid, reason);
    if (!already) this.events.fire(`failing: ${reason} (${detail})`);
    this.updatePhase();
  }

  /** Pod `uid` took a connection: a forward that was failing on it is ready again. */
  private podAnswered(uid: string): void {
    if (!this.tally.troubleOf(uid)) return;
    this.tally.answered(uid);
    this.events.fire(`ready again: pod ${this.current?.uid === uid ? this.current.name : uid} took a connection`);
    this.updatePhase();
    this.changes.fire(this.status);
  }
}

function describeState(state: InformerState): string {
  return `${state.phase}${state.reason ? ` (${state.reason})` : ''}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
