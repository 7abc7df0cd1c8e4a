/**
 * A local Kubernetes API server for tests that speaks the wire protocol of kube-apiserver 1.26
 * (see the shared fixtures/apiserver transcripts) or, with `version`, of 1.32/1.33/1.34
 * (fixtures/apiserver-modern): list with pagination, watch with replay, bookmarks, expiry,
 * timeouts, discovery, bearer-token auth, injectable faults; and on 1.32/1.34 (WatchList gate on)
 * the streaming list (sendInitialEvents=true) with its initial-events-end bookmark. What kubectl
 * needs besides: objects sent as protobuf or YAML (request-body.ts), Tables for `kubectl get`
 * (table.ts) and the OpenAPI v3 documents (openapi/openapi.ts).
 *
 * Invariants:
 * - All resources share one resourceVersion counter and one bounded history (store.ts).
 * - Requests are handled synchronously, so `requests[i].status` is final when the handler returns
 *   (0 = no response was sent: refused, reset, or left unanswered by a `silent` fault).
 * - `close()` ends every watch, timer and socket, so the process can exit.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { TLSSocket } from 'node:tls';
import * as http2 from 'node:http2';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type {
  Fault,
  FaultHandle,
  FaultMatch,
  FakeApiServerOptions,
  KubeObjectJson,
  KubeconfigOptions,
  RequestRecord,
  RequestVerb,
  ResourceDefinition,
  ServerVersion,
} from './types';
import { ObjectStore, objectKey, type HistoryEvent } from './store';
import { ResourceRegistry, groupVersionOf, qualifiedName } from './resources';
import { FaultRegistry } from './faults';
import { ConnectionTracker } from './connections';
import { parsePath, isTrue, type Route } from './router';
import { sendJson, sendPlain, sendPlainNotFound } from './responses';
import * as status from './status';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery';
import { listObjects, parseRv, predicateFor } from './list';
import { WatchStream } from './watch-stream';
import { atResourceVersion, prepareCreate, prepareUpdate, uuidFrom, withTypeMeta } from './object-meta';
import { loadTlsMaterial } from './tls';
import { renderKubeconfig } from './kubeconfig';
import { parseFieldSelector } from './selectors';
import { PodLogs, type PodForLogs } from './pod-logs';
import { reshapeList, sendStalled } from './shaped-responses';
import { PodStreams } from './pod-streams';
import { EphemeralContainers } from './ephemeral-containers';
import { WriteRoutes } from './writes';
import { AccessPolicy } from './access-policy';
import { MetricsApi, NODE_METRICS, POD_METRICS } from './metrics-api';
import { registerActionWrites } from './action-writes';
import type { ObjectDeleter } from './object-deleter';
import { managedFieldsAfterUpdate } from './field-manager';
import { tableVersionWanted, toTable } from './table';
import { partialMetadataWanted, toPartialList, toPartialObject } from './partial-metadata';
import { documentHash, groupVersionDocument, openApiIndex } from './openapi/openapi';

type ResourceRoute = Extract<Route, { kind: 'resource' }>;

const CRDS = 'customresourcedefinitions.apiextensions.k8s.io';
/** Groups of Kubernetes' own types (no CRD defines them): the core group, `apps`, `*.k8s.io`, ... */
const BUILT_IN_GROUP = /^$|^(apps|batch|policy|autoscaling)$|\.k8s\.io$/;

export class FakeApiServer {
  readonly caPem: string;
  readonly requests: RequestRecord[] = [];

  private readonly tls: boolean;
  private token: string;
  private readonly watchCache: boolean;
  readonly version: ServerVersion;
  /** 1.32 and newer: the 1.34 wire shape and validation. */
  private readonly modern: boolean;
  /** The WatchList feature gate. */
  private readonly watchListGate: boolean;
  private readonly ignoreSendInitialEvents: boolean;
  private readonly pendingTimers = new Set<NodeJS.Timeout>();
  private readonly timeScale: number;
  private readonly bookmarkIntervalMs: number;
  private readonly minRequestTimeoutSeconds: number;
  private readonly random: () => number;
  private readonly store: ObjectStore;
  private readonly registry = new ResourceRegistry();
  private readonly faults = new FaultRegistry();
  private readonly connections = new ConnectionTracker();
  private readonly watches = new Set<WatchStream>();
  /** Qualified names of types whose version is no longer served (their objects are kept). */
  private readonly unserved = new Set<string>();
  private readonly server: http.Server | http2.Http2SecureServer;
  /** HTTP/2 streams opened so far, and those open now with the most ever open on one connection. */
  readonly streamStats = { opened: 0, open: 0, maxOpenPerConnection: 0, pings: 0 };
  private readonly openStreamsBySession = new Map<http2.Http2Session, number>();
  /** Pod logs (`pods/NAME/log`): append lines, restart containers, drop or silence follow streams. */
  readonly podLogs = new PodLogs();
  /** Port-forward and exec (`pods/NAME/portforward`, `pods/NAME/exec` over WebSocket): pod-streams.ts. */
  readonly podStreams: PodStreams;
  /** `pods/NAME/ephemeralcontainers` and the kubelet that starts them (ephemeral-containers.ts). */
  readonly ephemeral: EphemeralContainers;
  /** Writes (writes.ts): create, update, patches, apply and dryRun built in; `writes.use(handler)` adds more. */
  readonly writes: WriteRoutes;
  /** Who may do what (access-policy.ts): everything until set; answers access reviews and refuses with RBAC's 403. */
  readonly access = new AccessPolicy();
  /** Deletes with their kubelet, garbage collector and namespace controller (object-deleter.ts); `podTerminationSeconds` caps a Pod's grace. */
  readonly deletes: ObjectDeleter;
  /** `metrics.k8s.io/v1beta1` (metrics-api.ts): served by default; `metrics.mode` 'absent' or 'forbidden'. */
  readonly metrics: MetricsApi;
  private port: number;
  private listening = false;

  private constructor(opts: FakeApiServerOptions) {
    this.tls = opts.tls ?? true;
    this.token = opts.token ?? 'test-token';
    this.watchCache = opts.watchCache ?? true;
    this.version = opts.version ?? '1.26';
    this.modern = this.version !== '1.26';
    this.watchListGate = this.modern && (opts.watchList ?? this.version !== '1.33');
    this.ignoreSendInitialEvents = opts.ignoreSendInitialEvents ?? false;
    this.timeScale = opts.timeScale ?? 1000;
    this.bookmarkIntervalMs = opts.bookmarkIntervalMs ?? 60 * this.timeScale;
    this.minRequestTimeoutSeconds = opts.minRequestTimeoutSeconds ?? 1800;
    this.random = opts.random ?? Math.random;
    this.port = opts.port ?? 0;
    this.store = new ObjectStore(opts.initialResourceVersion ?? 1, opts.historyLimit ?? 1000);
    this.writes = new WriteRoutes({ store: this.store, registry: this.registry, random: this.random, isUnserved: (d) => this.unserved.has(qualifiedName(d)) });
    this.deletes = registerActionWrites(this.writes, { access: this.access, timeScale: this.timeScale, timers: this.pendingTimers });
    const material = loadTlsMaterial();
    this.caPem = material.caPem;
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => this.handle(req, res);
    if (this.tls && (opts.http2 ?? process.env.FAKE_APISERVER_HTTP2 === '1')) {
      // Requests of HTTP/1.1 clients reach the same handler with http1 objects (allowHTTP1).
      const h2 = http2.createSecureServer(
        { key: material.keyPem, cert: material.certPem, allowHTTP1: true, requestCert: true, rejectUnauthorized: false, settings: { maxConcurrentStreams: opts.maxConcurrentStreams ?? 100 } },
        handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void, // the handler only uses what both share
      );
      h2.on('stream', (stream) => this.countStream(stream));
      h2.on('session', (session) => session.on('ping', () => this.streamStats.pings++));
      this.server = h2;
    } else {
      this.server = this.tls ? https.createServer({ key: material.keyPem, cert: material.certPem, requestCert: true, rejectUnauthorized: false }, handler) : http.createServer(handler);
    }
    this.connections.attach(this.server);
    this.podStreams = new PodStreams(this.server, { pod: (ns, name) => this.get('pods', ns, name), token: () => this.token, record: (r) => this.requests.push(r), onChange: (l) => this.onChange(l), refusal: (a) => (this.access.decide(a).allowed ? undefined : this.access.forbidden(a)) });
    this.ephemeral = new EphemeralContainers({
      onChange: (l) => this.onChange(l),
      get: (ns, name) => this.get('pods', ns, name),
      writeStatus: (pod) => void this.update('pods', pod),
      startContainer: (pod, container, onExit) => this.podStreams.startContainer(pod, container, onExit),
      timers: this.pendingTimers,
    });
    this.writes.use(this.ephemeral.writes);
    this.metrics = new MetricsApi({ list: (r, ns) => (this.registry.byName(r === 'nodes' ? 'nodes' : 'pods') ? this.list(r, ns) : []), now: () => Date.now() }, this.access);
  }

  /** Starts a server listening on 127.0.0.1. */
  static async start(opts: FakeApiServerOptions = {}): Promise<FakeApiServer> {
    const s = new FakeApiServer(opts);
    await s.listen();
    return s;
  }

  /** e.g. https://127.0.0.1:PORT */
  get url(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  /** The current global resourceVersion. */
  get resourceVersion(): string {
    return String(this.store.rv);
  }

  /** The oldest resourceVersion a watch can still start from (history holds everything newer). */
  get oldestResourceVersion(): string {
    return String(this.store.oldestRv);
  }

  /** The bearer token the server accepts now. */
  get acceptedToken(): string {
    return this.token;
  }

  /** Changes the accepted bearer token (token rotation). */
  setToken(token: string): void {
    this.token = token;
  }

  // ---- resource types ----------------------------------------------------------------------

  defineResource(def: ResourceDefinition): void {
    this.registry.define(def);
  }

  /**
   * Removes a resource type like a CRD deletion: every object gets a DELETED event, open watches
   * of the type end, then requests get 404 (plain text once its group has no resource left).
   * Returns the removed definition (to define it again later); throws for an unknown type.
   */
  removeResource(group: string, resource: string): ResourceDefinition {
    const name = qualifiedName({ group, resource });
    const def = this.registry.byName(name);
    if (!def) throw new Error(`removeResource: unknown resource "${name}"`);
    for (const obj of this.list(name)) this.delete(name, obj.metadata.namespace, obj.metadata.name);
    for (const w of [...this.watches]) if (w.resource === name) w.end();
    this.registry.remove(group, resource);
    this.store.dropResource(name);
    return { ...def };
  }

  /**
   * Stops serving a type's version, as when a CRD version is marked `served: false`: its objects
   * stay in storage, open watches of it end, discovery no longer lists it, and every request for
   * it gets the Go mux's plain-text 404 until `resumeServing`.
   */
  stopServing(resource: string): void {
    const name = qualifiedName(this.resolve(resource));
    this.unserved.add(name);
    for (const w of [...this.watches]) if (w.resource === name) w.end();
  }

  /**
   * Runs `changes` with every open watch's writes held back, then lets them go: the events it
   * causes reach each watcher in one chunk (one read on the client, on loopback).
   */
  inOneChunk(changes: () => void): void {
    const open = [...this.watches];
    for (const w of open) w.cork();
    try {
      changes();
    } finally {
      for (const w of open) w.uncork();
    }
  }

  /**
   * Holds back what the open watches (of `resource` only, when given) send until the returned
   * release runs: watches that lag behind the writes (a write answered before its event arrives).
   */
  holdWatches(resource?: string): () => void {
    const held = [...this.watches].filter((w) => resource === undefined || w.resource === resource);
    for (const w of held) w.cork();
    return () => {
      for (const w of held) w.uncork();
    };
  }

  /** Serves a type's version again after `stopServing`, with the objects it kept. */
  resumeServing(resource: string): void {
    this.unserved.delete(qualifiedName(this.resolve(resource)));
  }

  // ---- objects -----------------------------------------------------------------------------

  /**
   * Calls `listener` after every committed change of any object (what a controller's informer
   * would see, without the network); returns the unsubscribe. The listener runs inside the
   * change: a controller that writes in answer must defer its writes (the real ones are async).
   */
  onChange(listener: (change: HistoryEvent) => void): () => void {
    return this.store.subscribe(listener);
  }

  create(resource: string, obj: object): KubeObjectJson {
    const def = this.resolve(resource);
    const input = structuredClone(obj) as KubeObjectJson;
    if (!input.metadata || typeof input.metadata !== 'object') throw new Error('create: object has no metadata');
    const meta = input.metadata as KubeObjectJson['metadata'] & { generateName?: string };
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${uuidFrom(this.random).slice(0, 5)}`;
    if (!meta.name) throw new Error('create: metadata.name is required');
    const namespace = def.namespaced ? meta.namespace || 'default' : undefined;
    const key = objectKey(namespace, meta.name);
    const q = qualifiedName(def);
    if (this.store.peek(q, key)) throw new Error(`create: ${q} "${key}" already exists`);
    const rv = this.store.nextRv();
    const stored = prepareCreate(def, input, rv, this.random);
    this.store.commit({ rv, resource: q, key, type: 'ADDED', object: stored });
    return withTypeMeta(def, stored);
  }

  /**
   * Replaces the object with the same namespace/name (no resourceVersion precondition); keeps uid.
   * With `manager`, the fields it changed become that manager's in managedFields, as a
   * controller's update would make them (field-manager.ts).
   */
  update(resource: string, obj: object, opts: { manager?: string } = {}): KubeObjectJson {
    const def = this.resolve(resource);
    const input = structuredClone(obj) as KubeObjectJson;
    if (!input.metadata?.name) throw new Error('update: metadata.name is required');
    const namespace = def.namespaced ? input.metadata.namespace || 'default' : undefined;
    const key = objectKey(namespace, input.metadata.name);
    const q = qualifiedName(def);
    const prev = this.store.peek(q, key);
    if (!prev) throw new Error(`update: ${q} "${key}" not found`);
    const rv = this.store.nextRv();
    const stored = prepareUpdate(def, prev, input, rv);
    if (opts.manager) stored.metadata.managedFields = managedFieldsAfterUpdate(prev, { ...stored, metadata: { ...stored.metadata, managedFields: undefined } }, opts.manager, groupVersionOf(def));
    this.store.commit({ rv, resource: q, key, type: 'MODIFIED', object: stored, prev });
    return withTypeMeta(def, stored);
  }

  /** Deletes at once (no finalizers); returns the object with the deletion's resourceVersion. */
  delete(resource: string, namespace: string | undefined, name: string): KubeObjectJson | undefined {
    const def = this.resolve(resource);
    const key = objectKey(def.namespaced ? namespace || 'default' : undefined, name);
    const q = qualifiedName(def);
    const prev = this.store.peek(q, key);
    if (!prev) return undefined;
    const rv = this.store.nextRv();
    const object = atResourceVersion(prev, rv);
    this.store.commit({ rv, resource: q, key, type: 'DELETED', object, prev });
    return withTypeMeta(def, object);
  }

  get(resource: string, namespace: string | undefined, name: string): KubeObjectJson | undefined {
    const def = this.resolve(resource);
    const obj = this.store.peek(qualifiedName(def), objectKey(def.namespaced ? namespace || 'default' : undefined, name));
    return obj && withTypeMeta(def, obj);
  }

  /** Current objects (with kind/apiVersion), sorted by namespace/name; all namespaces when none is given. */
  list(resource: string, namespace?: string): KubeObjectJson[] {
    const def = this.resolve(resource);
    return [...this.store.currentObjects(qualifiedName(def))]
      .filter(([, o]) => namespace === undefined || o.metadata.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => withTypeMeta(def, o));
  }

  /**
   * etcd compaction at the current revision. On 1.26 (and without the watch cache) old
   * resourceVersions and continue tokens then get 410. A 1.32+ watch cache keeps serving them
   * from its own window and snapshots (transcript modern/07): there it changes nothing that a
   * client can see, until the apiserver restarts (`comeUp({ compact: true })` or `restartWatchCache()`).
   */
  compact(): void {
    if (this.modern && this.watchCache) return;
    this.store.compact();
  }

  /** The history is gone as after an apiserver restart: its watch cache starts at the current revision (both generations). */
  restartWatchCache(): void {
    this.store.compact();
  }

  // ---- faults ------------------------------------------------------------------------------

  injectFault(fault: Fault, match?: FaultMatch): FaultHandle {
    return this.faults.add(fault, match);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /**
   * Ends every open watch (of `resource` only, when given: 'events', 'deployments.apps') cleanly
   * ('end') or with an RST ('reset'); returns how many.
   */
  dropWatches(how: 'end' | 'reset', resource?: string): number {
    const open = [...this.watches].filter((w) => resource === undefined || w.resource === resource);
    for (const w of open) (how === 'end' ? w.end() : w.reset());
    return open.length;
  }

  /** Stops listening and destroys every connection: clients then get ECONNREFUSED. */
  async goDown(): Promise<void> {
    await this.shutdown();
  }

  /**
   * Listens again on the same port. With `{ compact: true }` the history is gone as after a real
   * apiserver restart (its watch cache starts at the current revision, transcript 09).
   */
  async comeUp(opts: { compact?: boolean } = {}): Promise<void> {
    if (opts.compact) this.store.compact();
    await this.listen();
  }

  /** Closes everything the server started; safe to call twice. */
  async close(): Promise<void> {
    this.faults.clear();
    await this.shutdown();
  }

  // ---- observation -------------------------------------------------------------------------

  /** Watch responses currently open, optionally of one resource ('configmaps', 'deployments.apps'). */
  openWatches(resource?: string): number {
    let n = 0;
    for (const w of this.watches) if (resource === undefined || w.resource === resource) n++;
    return n;
  }

  /** TCP connections currently open to the server. */
  openSockets(): number {
    return this.connections.count;
  }

  kubeconfig(opts: KubeconfigOptions = {}): string {
    return renderKubeconfig({ url: this.url, caPem: this.tls ? this.caPem : undefined, defaultToken: this.token }, opts);
  }

  writeKubeconfig(path: string, opts: KubeconfigOptions = {}): void {
    writeFileSync(path, this.kubeconfig(opts));
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  private async listen(): Promise<void> {
    if (this.listening) return;
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.listening = true;
  }

  private async shutdown(): Promise<void> {
    for (const t of this.pendingTimers) clearTimeout(t);
    this.pendingTimers.clear();
    for (const w of [...this.watches]) w.destroy();
    this.podLogs.destroyAll();
    if (!this.listening) {
      await this.connections.destroyAll();
      return;
    }
    this.listening = false;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.connections.destroyAll();
    await closed;
  }

  private countStream(stream: http2.ServerHttp2Stream): void {
    const session = stream.session;
    if (!session) return;
    const open = (this.openStreamsBySession.get(session) ?? 0) + 1;
    this.openStreamsBySession.set(session, open);
    this.streamStats.opened++;
    this.streamStats.open++;
    this.streamStats.maxOpenPerConnection = Math.max(this.streamStats.maxOpenPerConnection, open);
    stream.once('close', () => {
      this.streamStats.open--;
      const left = (this.openStreamsBySession.get(session) ?? 1) - 1;
      if (left > 0) this.openStreamsBySession.set(session, left);
      else this.openStreamsBySession.delete(session);
    });
  }

  private resolve(resource: string): ResourceDefinition {
    const exact = this.registry.byName(resource);
    if (exact) return exact;
    const candidates = this.registry.all().filter((d) => d.resource === resource);
    if (candidates.length === 1) return candidates[0];
    throw new Error(`unknown resource "${resource}" (use e.g. 'configmaps' or 'deployments.apps')`);
  }

  // ---- request handling --------------------------------------------------------------------

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) if (!(k in query)) query[k] = v;
    const route = parsePath(url.pathname);
    const method = req.method ?? 'GET';
    const record: RequestRecord = { verb: verbOf(route, method, query), method, path: url.pathname, query, status: 0, at: Date.now() };
    const clientCert = clientCertFingerprint(req);
    if (clientCert) record.clientCert = clientCert;
    record.protocol = req.httpVersion === '2.0' ? 'h2' : 'http/1.1';
    if (route.kind === 'resource') {
      record.resource = qualifiedName(route);
      if (route.namespace !== undefined) record.namespace = route.namespace;
      if (route.name !== undefined) record.name = route.name;
    }
    this.requests.push(record);
    try {
      this.dispatch(req, res, route, record);
    } catch (err) {
      if (!res.headersSent) sendJson(req, res, query, 500, status.failure(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`, {}));
    }
    record.status = res.headersSent ? res.statusCode : 0;
  }

  private dispatch(req: http.IncomingMessage, res: http.ServerResponse, route: Route, record: RequestRecord): void {
    const { query } = record;
    let fault: Fault | undefined;
    // Options the server refuses (422) are refused before anything else can go wrong with the request.
    const refused = (record.verb === 'watch' || record.verb === 'watchlist') && this.invalidWatchOptions(query) !== undefined;
    if (route.kind === 'resource' && (record.verb === 'list' || record.verb === 'watch' || record.verb === 'watchlist') && !refused) {
      fault = this.faults.take(record.verb, record.resource!);
      if (fault) record.faulted = fault.type;
    }
    if (fault?.type === 'refuse') {
      this.connections.destroyConnectionOf(req.socket);
      return;
    }
    if (fault?.type === 'status') {
      const extra: Record<string, string> = fault.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : {};
      sendJson(req, res, query, fault.code, status.faultStatus(fault.code, fault.reason, fault.message, fault.retryAfterSeconds, fault.causes), extra);
      return;
    }
    if (record.verb === 'list' && fault?.type === 'reset') {
      this.connections.reset(req.socket);
      return;
    }
    if (record.verb === 'list' && fault?.type === 'silent') return;
    if (fault?.type === 'stalledBody' && fault.code !== 200) return sendStalled(res, fault);

    const auth = req.headers.authorization;
    if (auth === undefined) {
      const body =
        route.kind === 'resource'
          ? status.forbiddenResource(forbiddenVerb(record.verb, req.method ?? 'GET'), route.group, route.resource, route.namespace, route.name)
          : status.forbiddenPath(record.path);
      sendJson(req, res, query, 403, body, { 'X-Content-Type-Options': 'nosniff' });
      return;
    }
    if (auth !== `Bearer ${this.token}`) {
      sendJson(req, res, query, 401, status.unauthorized());
      return;
    }

    if (this.access.refuse(req, res, route, record)) return;
    switch (route.kind) {
      case 'unknown':
        return sendPlainNotFound(res);
      case 'nonResource':
        if (route.path === '/version') return sendJson(req, res, query, 200, versionInfo());
        return sendPlain(res, 200, 'ok');
      case 'discovery':
        return this.serveDiscovery(req, res, route, query);
      case 'openapi':
        return this.serveOpenApi(req, res, route.document, query);
      case 'resource':
        return this.serveResource(req, res, route, record, fault);
    }
  }

  private serveDiscovery(req: http.IncomingMessage, res: http.ServerResponse, route: Extract<Route, { kind: 'discovery' }>, query: Record<string, string>): void {
    let doc: object | undefined;
    // A version that is not served is not listed, as a real server leaves a CRD's `served: false` versions out.
    const kept = this.registry.all().filter((d) => !this.unserved.has(qualifiedName(d)));
    const served = this.unserved.size === 0 && !this.metrics.advertised ? this.registry : new ResourceRegistry([...kept, ...(this.metrics.advertised ? [POD_METRICS, NODE_METRICS] : [])]);
    if (route.doc === 'api') doc = apiVersions(`127.0.0.1:${this.port}`);
    else if (route.doc === 'apis') doc = apiGroupList(served);
    else if (route.doc === 'group') doc = apiGroup(served, route.group!);
    else doc = apiResourceList(served, route.group!, route.version!);
    if (!doc) return sendPlainNotFound(res);
    sendJson(req, res, query, 200, doc);
  }

  /** The OpenAPI v3 index or one group-version's document (openapi/openapi.ts), of what is served now. */
  private serveOpenApi(req: http.IncomingMessage, res: http.ServerResponse, document: string, query: Record<string, string>): void {
    const served = this.registry.all().filter((d) => !this.unserved.has(qualifiedName(d)));
    const doc = document === '' ? openApiIndex(served) : groupVersionDocument(served, document);
    if (!doc) return sendPlainNotFound(res);
    sendJson(req, res, query, 200, doc, query.hash ? { 'Cache-Control': 'public, immutable', Etag: `"${documentHash(doc)}"` } : {});
  }

  private serveResource(req: http.IncomingMessage, res: http.ServerResponse, route: ResourceRoute, record: RequestRecord, fault: Fault | undefined): void {
    const { query } = record;
    if (this.metrics.serve(req, res, route, record)) return;
    if (req.method !== 'GET') return this.writes.serve(req, res, route, record);
    if (!this.registry.hasGroupVersion(route.group, route.version)) return sendPlainNotFound(res);
    const def = this.registry.byPath(route.group, route.version, route.resource);
    if (def && this.unserved.has(qualifiedName(def))) return sendPlainNotFound(res);
    if (def && def.group === '' && def.resource === 'pods' && route.subresource === 'log' && route.namespace !== undefined && route.name !== undefined) {
      if (req.method !== 'GET') return sendJson(req, res, query, 405, status.methodNotAllowed());
      const pod = this.store.peek(qualifiedName(def), objectKey(route.namespace, route.name));
      if (!pod) return sendJson(req, res, query, 404, status.objectNotFound(def.group, def.resource, route.name));
      const refused = this.podLogs.serve(res, pod as unknown as PodForLogs, query, () => this.connections.reset(req.socket));
      if (refused) sendJson(req, res, query, refused.code, refused);
      return;
    }
    if (def && def.group === '' && def.resource === 'pods' && route.subresource === 'ephemeralcontainers' && route.namespace !== undefined && route.name !== undefined && this.ephemeral.supported) {
      const pod = this.store.peek(qualifiedName(def), objectKey(route.namespace, route.name));
      if (!pod) return sendJson(req, res, query, 404, status.objectNotFound(def.group, def.resource, route.name));
      return sendJson(req, res, query, 200, withTypeMeta(def, pod));
    }
    if (!def || (route.namespace !== undefined && !def.namespaced) || route.subresource !== undefined) {
      return sendJson(req, res, query, 404, status.resourceNotFound());
    }
    if (req.method !== 'GET') return sendJson(req, res, query, 405, status.methodNotAllowed());
    const q = qualifiedName(def);

    if (record.verb === 'get') {
      const obj = this.store.peek(q, objectKey(route.namespace, route.name!));
      if (!obj) return sendJson(req, res, query, 404, status.objectNotFound(def.group, def.resource, route.name!));
      const table = tableVersionWanted(req);
      if (table) return sendJson(req, res, query, 200, this.table(def, [withTypeMeta(def, obj)], { resourceVersion: obj.metadata.resourceVersion }, table, query));
      if (partialMetadataWanted(req) === 'object') return sendJson(req, res, query, 200, toPartialObject(obj));
      return sendJson(req, res, query, 200, withTypeMeta(def, obj));
    }
    if (record.verb === 'list') return this.serveList(req, res, def, route, record, fault);
    this.serveWatch(req, res, def, route, query, fault);
  }

  /** A LIST; one at a resourceVersion the server has not seen waits about 3 s for it, then 504 with Retry-After. */
  private serveList(req: http.IncomingMessage, res: http.ServerResponse, def: ResourceDefinition, route: ResourceRoute, record: RequestRecord, fault: Fault | undefined): void {
    const { query } = record;
    const list = () => listObjects(this.store, def, route.namespace, query, { watchCache: this.watchCache, modern: this.modern });
    const send = (out: ReturnType<typeof list>) => {
      if (out.ok && fault?.type === 'stalledBody') sendStalled(res, fault, out.body);
      else if (out.ok && tableVersionWanted(req)) sendJson(req, res, query, 200, this.listTable(def, out.body, tableVersionWanted(req)!, query));
      else if (out.ok && partialMetadataWanted(req) === 'list') sendJson(req, res, query, 200, toPartialList(out.body));
      else if (out.ok) sendJson(req, res, query, 200, fault?.type === 'listShape' ? reshapeList(out.body, fault) : out.body);
      else sendJson(req, res, query, out.status.code, out.status, out.tooLarge ? { 'Retry-After': '1' } : {});
    };
    const out = list();
    if (out.ok || !out.tooLarge) return send(out);
    const t = setTimeout(() => {
      this.pendingTimers.delete(t);
      if (res.destroyed || res.headersSent) return;
      send(list());
      record.status = res.statusCode;
    }, 3 * this.timeScale);
    t.unref();
    this.pendingTimers.add(t);
  }

  private serveWatch(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    def: ResourceDefinition,
    route: ResourceRoute,
    query: Record<string, string>,
    fault: Fault | undefined,
  ): void {
    const rvParam = query.resourceVersion ?? '';
    const invalid = this.invalidWatchOptions(query);
    if (invalid) return sendJson(req, res, query, 422, invalid);
    const pred = predicateFor(def, route.namespace, query);
    if (!pred.ok) return sendJson(req, res, query, pred.status.code, pred.status);
    const predicate = pred.predicate;
    if (route.name !== undefined) {
      // Watching a single object: the old path form of fieldSelector=metadata.name=NAME.
      const byName = parseFieldSelector(`metadata.name=${route.name.replace(/[\\,=!]/g, (c) => `\\${c}`)}`);
      const fields = predicate.fields;
      predicate.fields = (o) => byName(o) && fields(o);
    }
    let fromRv: number | undefined;
    if (rvParam !== '' && rvParam !== '0') {
      fromRv = parseRv(rvParam);
      if (fromRv === undefined) return sendJson(req, res, query, 500, status.watchInvalidResourceVersion(rvParam));
    }
    // 1.32+ with WatchList on defaults an old-style watch from "" or "0" to sendInitialEvents=true (modern/04).
    const ignore = this.ignoreSendInitialEvents || !this.watchListGate;
    let sendInitialEvents = ignore ? undefined : query.sendInitialEvents === undefined ? undefined : isTrue(query.sendInitialEvents);
    if (!ignore && sendInitialEvents === undefined && fromRv === undefined && !query.resourceVersionMatch) sendInitialEvents = true;
    let noInitialEvents = false;
    if (sendInitialEvents === true) {
      if (fromRv !== undefined && fromRv > this.store.rv) {
        // A resourceVersion from the future: the server waits about 3 s for it, then ERROR 504 (modern/02 c).
        const t = setTimeout(() => {
          this.pendingTimers.delete(t);
          if (res.destroyed || res.headersSent) return;
          if (fromRv! <= this.store.rv) return this.openWatch(req, res, def, predicate, query, fault, undefined, false, true);
          res.writeHead(200, { 'Audit-Id': 'future-rv', 'Cache-Control': 'no-cache, private', 'Content-Type': 'application/json' });
          res.end(`${JSON.stringify({ type: 'ERROR', object: status.tooLargeResourceVersion(fromRv!, this.store.rv) })}\n`);
        }, 3 * this.timeScale);
        t.unref();
        this.pendingTimers.add(t);
        return;
      }
      // NotOlderThan any given RV: the current state (a consistent read when unset).
      fromRv = undefined;
    } else if (sendInitialEvents === false && fromRv === undefined) {
      noInitialEvents = true;
    }
    this.openWatch(req, res, def, predicate, query, fault, fromRv, noInitialEvents, sendInitialEvents === true);
  }

  /** A list answered as a Table (`kubectl get`): its items as rows, its metadata kept (table.ts). */
  private listTable(def: ResourceDefinition, list: object, version: 'v1' | 'v1beta1', query: Record<string, string>): object {
    const { items, metadata } = list as { items?: KubeObjectJson[]; metadata?: Record<string, unknown> };
    return this.table(def, (items ?? []).map((o) => withTypeMeta(def, o)), metadata ?? {}, version, query);
  }

  private table(def: ResourceDefinition, objects: KubeObjectJson[], metadata: Record<string, unknown>, version: 'v1' | 'v1beta1', query: Record<string, string>, noHeaders = false): Record<string, unknown> {
    const crds = this.registry.byName(CRDS);
    const crd = crds && !BUILT_IN_GROUP.test(def.group) ? this.store.peek(CRDS, objectKey(undefined, `${def.resource}.${def.group}`)) : undefined;
    return toTable({ def, objects, metadata, version, includeObject: query.includeObject, crd, noHeaders });
  }

  /**
   * The 422 a watch's options get, or undefined: on 1.26 any resourceVersionMatch (modern/../06);
   * on 1.33 (gate off) sendInitialEvents; on 1.32/1.34 sendInitialEvents without
   * resourceVersionMatch=NotOlderThan, or resourceVersionMatch without sendInitialEvents (modern/03, 11).
   */
  private invalidWatchOptions(query: Record<string, string>): status.StatusJson | undefined {
    if (this.ignoreSendInitialEvents) return undefined;
    const rvm = query.resourceVersionMatch ?? '';
    const sie = query.sendInitialEvents;
    if (!this.modern) {
      if (rvm === '') return undefined;
      const problems = ['resourceVersionMatch is forbidden for watch'];
      if ((query.resourceVersion ?? '') === '') problems.push('resourceVersionMatch is forbidden unless resourceVersion is provided');
      return status.invalidListOptions(problems);
    }
    const forbidden = (field: string, message: string) => ({ reason: 'FieldValueForbidden', message: `Forbidden: ${message}`, field });
    if (sie !== undefined && !this.watchListGate) {
      return status.invalidWatchOptions([forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled')]);
    }
    const causes = [];
    if (sie !== undefined) {
      if (rvm !== 'NotOlderThan') causes.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      if (rvm !== '' && rvm !== 'NotOlderThan') {
        causes.push({ reason: 'FieldValueNotSupported', message: `Unsupported value: "${rvm}": supported values: "NotOlderThan"`, field: 'resourceVersionMatch' });
      }
    } else if (rvm !== '') {
      causes.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    return causes.length > 0 ? status.invalidWatchOptions(causes) : undefined;
  }

  private openWatch(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    def: ResourceDefinition,
    predicate: ReturnType<typeof predicateFor> extends infer P ? (P extends { ok: true; predicate: infer Q } ? Q : never) : never,
    query: Record<string, string>,
    fault: Fault | undefined,
    fromRv: number | undefined,
    noInitialEvents: boolean,
    initialEventsEnd: boolean,
  ): void {
    const table = tableVersionWanted(req);
    const timeoutSeconds = query.timeoutSeconds !== undefined && /^\d+$/.test(query.timeoutSeconds) ? Number(query.timeoutSeconds) : 0;
    const seconds = timeoutSeconds > 0 ? timeoutSeconds : this.minRequestTimeoutSeconds * (1 + this.random());
    const watch = new WatchStream(req, res, {
      store: this.store,
      def,
      predicate,
      fromRv,
      noInitialEvents,
      initialEventsEnd,
      modern: this.modern,
      allowBookmarks: isTrue(query.allowWatchBookmarks),
      watchCache: this.watchCache,
      timeoutMs: seconds * this.timeScale,
      timeScale: this.timeScale,
      bookmarkIntervalMs: this.bookmarkIntervalMs,
      fault,
      resetConnection: () => this.connections.reset(req.socket),
      destroyConnection: () => this.connections.destroyConnectionOf(req.socket),
      onClosed: (w) => this.watches.delete(w),
      asObject: table
        ? (o, first) => this.table(def, [o], { resourceVersion: o.metadata.resourceVersion }, table, query, !first)
        : partialMetadataWanted(req) === 'object'
          ? (o) => toPartialObject(o)
          : undefined,
    });
    this.watches.add(watch);
    watch.start();
  }
}

function verbOf(route: Route, method: string, query: Record<string, string>): RequestVerb {
  if (route.kind === 'discovery') return 'discovery';
  if (route.kind !== 'resource' || method !== 'GET' || route.subresource !== undefined) return 'other';
  if (isTrue(query.watch)) return isTrue(query.sendInitialEvents) ? 'watchlist' : 'watch';
  return route.name !== undefined ? 'get' : 'list';
}

/** The RBAC verb named in a 403 message. */
function forbiddenVerb(verb: RequestVerb, method: string): string {
  if (verb === 'list' || verb === 'watch' || verb === 'get') return verb;
  return { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }[method] ?? method.toLowerCase();
}

/** The SHA-256 fingerprint of the client certificate presented on the request's TLS connection, if any (F27). */
function clientCertFingerprint(req: http.IncomingMessage): string | undefined {
  const socket = req.socket as Partial<TLSSocket>;
  return socket.getPeerCertificate?.()?.fingerprint256 || undefined;
}
