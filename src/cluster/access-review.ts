import { AbortedError, ApiError, Emitter, describeError, systemClock, type Clock, type Disposable } from '../base';
import type { KubeTransport } from '../informer';

/**
 * What the user of one context may do, as the server says: `SelfSubjectAccessReview` answers
 * (`kubectl auth can-i VERB RESOURCE`) and `SelfSubjectRulesReview` rule lists (`kubectl auth
 * can-i --list`), cached. One cache per context (the session holds it); a context switch makes a
 * new one, a change of credentials and a 403 forget what they contradict.
 *
 * Invariants:
 * - One review in flight per question: concurrent `can` calls for the same query share it.
 * - An answer learned before an `invalidate` is never stored after it (a generation count).
 * - A review that could not be made (network, server error, no write on the transport) is an
 *   `unknown` answer that is never cached: the caller decides (offer the action and let the
 *   server refuse it in words).
 * - After `dispose()` no request is in flight and no listener is held.
 */

/** One question: may I VERB this resource (in this namespace, by this name)? */
export interface AccessQuery {
  verb: string;
  /** API group; '' for the core group. */
  group: string;
  /** Plural resource name (`deployments`). */
  resource: string;
  /** `scale`, `eviction`, `status`, ... */
  subresource?: string;
  /** Omitted (or '') for cluster-scoped resources and for all namespaces. */
  namespace?: string;
  name?: string;
}

export interface AccessAnswer {
  allowed: boolean;
  /** The server's words (the RBAC binding that allowed it, why it was denied), or why no review answered. */
  reason?: string;
  /** No review answered; never cached. `allowed` is true then: the server will decide. */
  unknown?: boolean;
}

/** One rule of a SelfSubjectRulesReview. */
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

/** What the user may do in one namespace (cluster-wide rules included), as a rules review lists it. */
export interface ResourceRules {
  namespace: string;
  resourceRules: ResourceRule[];
  /** The server could not list everything (an authorizer that cannot enumerate): a missing rule proves nothing. */
  incomplete: boolean;
  evaluationError?: string;
  /** No review answered; never cached. */
  unknown?: boolean;
}

export interface AccessReviewOptions {
  /** Time for the answers' age; default the system clock. */
  clock?: Clock;
  /** How long an answer is trusted before `can` asks again (RBAC may change); default 5 minutes. */
  ttlMs?: number;
  /** Answers kept at most (the oldest are dropped); default 2000. */
  maxEntries?: number;
}

/** What the cache needs of a transport: its write (a SwitchableTransport has one). */
export type AccessReviewTransport = Pick<KubeTransport, 'write'>;

const REVIEWS = '/apis/authorization.k8s.io/v1';
const DEFAULT_TTL_MS = 5 * 60_000;
const DEFAULT_MAX_ENTRIES = 2000;

interface Stored<T> {
  value: T;
  at: number;
}

export class AccessReviewCache implements Disposable {
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly answers = new Map<string, Stored<AccessAnswer>>();
  private readonly ruleLists = new Map<string, Stored<ResourceRules>>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly changes = new Emitter<AccessQuery | undefined>();
  private generation = 0;
  private readonly life = new AbortController();
  private reviews = 0;

  constructor(
    private readonly transport: AccessReviewTransport | (() => AccessReviewTransport | undefined),
    options: AccessReviewOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  }

  /** Reviews sent so far (tests: a cached answer sends none). */
  get reviewCount(): number {
    return this.reviews;
  }

  /** Fires when an answer is learned (with its query) or answers are forgotten (the query a 403 contradicted, or undefined for all). */
  onDidChange(listener: (query: AccessQuery | undefined) => void): Disposable {
    return this.changes.on(listener);
  }

  /** The answer known now, however old; undefined when none (ask with `can`). Never sends a review. */
  peek(query: AccessQuery): AccessAnswer | undefined {
    return this.answers.get(accessKey(query))?.value;
  }

  /** True when the answer known for `query` is older than the TTL (ask again with `can`); false when fresh or unknown. */
  stale(query: AccessQuery): boolean {
    const stored = this.answers.get(accessKey(query));
    return stored !== undefined && this.clock.now() - stored.at >= this.ttlMs;
  }

  /**
   * May the user do `query`? From the cache while the answer is younger than the TTL, else one
   * SelfSubjectAccessReview (shared with concurrent callers). Rejects only with AbortedError
   * (the caller's signal, or the cache disposed).
   */
  can(query: AccessQuery, signal?: AbortSignal): Promise<AccessAnswer> {
    const key = accessKey(query);
    const stored = this.answers.get(key);
    if (stored && this.clock.now() - stored.at < this.ttlMs) return Promise.resolve(stored.value);
    return this.shared(`can\u0000${key}`, signal, async (generation, life) => {
      const answer = await this.review(query, life);
      if (!answer.unknown && generation === this.generation) {
        this.remember(this.answers, key, answer);
        this.changes.fire(query);
      }
      return answer;
    });
  }

  /**
   * What the user may do in `namespace` (its rules and the cluster-wide ones; the server requires
   * a namespace): one SelfSubjectRulesReview, cached like `can`.
   */
  rules(namespace: string, signal?: AbortSignal): Promise<ResourceRules> {
    const stored = this.ruleLists.get(namespace);
    if (stored && this.clock.now() - stored.at < this.ttlMs) return Promise.resolve(stored.value);
    return this.shared(`rules\u0000${namespace}`, signal, async (generation, life) => {
      const rules = await this.reviewRules(namespace, life);
      if (!rules.unknown && generation === this.generation) {
        this.remember(this.ruleLists, namespace, rules);
        this.changes.fire(undefined);
      }
      return rules;
    });
  }

  /**
   * Forgets everything (a context switch, new credentials), or, after a 403 on `query`, what it
   * contradicts: every answer about that resource in that namespace and in all namespaces (a grant
   * everywhere is one in that namespace too), and that namespace's rules.
   * Reviews in flight finish but are not stored.
   */
  invalidate(query?: AccessQuery): void {
    this.generation++;
    if (!query) {
      this.answers.clear();
      this.ruleLists.clear();
    } else {
      const scope = scopeKey(query);
      const everywhere = scopeKey({ ...query, namespace: undefined });
      for (const key of [...this.answers.keys()]) {
        const of = scopeKey(queryOfKey(key));
        if (of === scope || of === everywhere) this.answers.delete(key);
      }
      // Cluster-wide rules are in every namespace's list.
      if (query.namespace) this.ruleLists.delete(query.namespace);
      else this.ruleLists.clear();
    }
    this.inflight.clear();
    this.changes.fire(query);
  }

  dispose(): void {
    this.life.abort(new AbortedError('access reviews disposed'));
    this.inflight.clear();
    this.answers.clear();
    this.ruleLists.clear();
    this.changes.dispose();
  }

  // ---- reviews ----

  private writer(): AccessReviewTransport | undefined {
    return typeof this.transport === 'function' ? this.transport() : this.transport;
  }

  private async review(query: AccessQuery, signal: AbortSignal): Promise<AccessAnswer> {
    const writer = this.writer();
    if (!writer?.write) return { allowed: true, unknown: true, reason: 'this connection cannot send access reviews' };
    const resourceAttributes: Record<string, string> = { verb: query.verb, resource: query.resource };
    if (query.group) resourceAttributes.group = query.group;
    if (query.subresource) resourceAttributes.subresource = query.subresource;
    if (query.namespace) resourceAttributes.namespace = query.namespace;
    if (query.name) resourceAttributes.name = query.name;
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } };
    this.reviews++;
    try {
      const answer = await writer.write<{ status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string } }>(
        { method: 'POST', path: `${REVIEWS}/selfsubjectaccessreviews`, body: JSON.stringify(body) },
        signal,
      );
      const status = answer.status ?? {};
      const reason = status.reason || status.evaluationError || undefined;
      return status.allowed === true ? { allowed: true, ...(reason ? { reason } : {}) } : { allowed: false, ...(reason ? { reason } : {}) };
    } catch (err) {
      if (err instanceof AbortedError) throw err;
      return { allowed: true, unknown: true, reason: `the access review failed: ${describeError(err)}` };
    }
  }

  private async reviewRules(namespace: string, signal: AbortSignal): Promise<ResourceRules> {
    const writer = this.writer();
    if (!writer?.write) return { namespace, resourceRules: [], incomplete: true, unknown: true, evaluationError: 'this connection cannot send access reviews' };
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } };
    this.reviews++;
    try {
      const answer = await writer.write<{ status?: { resourceRules?: ResourceRule[]; incomplete?: boolean; evaluationError?: string } }>(
        { method: 'POST', path: `${REVIEWS}/selfsubjectrulesreviews`, body: JSON.stringify(body) },
        signal,
      );
      const status = answer.status ?? {};
      return { namespace, resourceRules: status.resourceRules ?? [], incomplete: status.incomplete === true, ...(status.evaluationError ? { evaluationError: status.evaluationError } : {}) };
    } catch (err) {
      if (err instanceof AbortedError) throw err;
      const words = err instanceof ApiError ? `${err.code} ${err.message}` : describeError(err);
      return { namespace, resourceRules: [], incomplete: true, unknown: true, evaluationError: `the rules review failed: ${words}` };
    }
  }

  // ---- bookkeeping ----

  /** One review per key at a time; the caller's signal only stops the caller's wait. */
  private shared<T>(key: string, signal: AbortSignal | undefined, run: (generation: number, life: AbortSignal) => Promise<T>): Promise<T> {
    if (this.life.signal.aborted) return Promise.reject(new AbortedError('access reviews disposed'));
    let pending = this.inflight.get(key) as Promise<T> | undefined;
    if (!pending) {
      const started = run(this.generation, this.life.signal).finally(() => {
        if (this.inflight.get(key) === started) this.inflight.delete(key);
      });
      pending = started;
      this.inflight.set(key, started);
    }
    return signal ? raceAbort(pending, signal) : pending;
  }

  private remember<T>(map: Map<string, Stored<T>>, key: string, value: T): void {
    map.delete(key);
    map.set(key, { value, at: this.clock.now() });
    while (map.size > this.maxEntries) map.delete(map.keys().next().value as string);
  }
}

/** The cache key of a query. */
function accessKey(q: AccessQuery): string {
  return [q.verb, q.group, q.resource, q.subresource ?? '', q.namespace ?? '', q.name ?? ''].join('\u0000');
}

/** The resource and namespace a query is about (what a 403 contradicts). */
function scopeKey(q: Pick<AccessQuery, 'group' | 'resource' | 'namespace'>): string {
  return [q.group, q.resource, q.namespace ?? ''].join('\u0000');
}

function queryOfKey(key: string): AccessQuery {
  const [verb, group, resource, subresource, namespace, name] = key.split('\u0000');
  return { verb, group, resource, subresource, namespace, name };
}

function raceAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortedError('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Whether `rules` (a rules review) allow `query`, as RBAC matches them: a verb, group and
 * resource (`deployments/scale` for a subresource; `*` matches anything) and, when the rule
 * names some, the object's name. Undefined when the rules cannot prove a denial (incomplete).
 */
export function rulesAllow(rules: ResourceRules, query: AccessQuery): boolean | undefined {
  const resource = query.subresource ? `${query.resource}/${query.subresource}` : query.resource;
  const matches = rules.resourceRules.some((rule) => {
    if (!rule.verbs.some((v) => v === '*' || v === query.verb)) return false;
    if (!(rule.apiGroups ?? []).some((g) => g === '*' || g === query.group)) return false;
    if (!(rule.resources ?? []).some((r) => r === '*' || r === resource || (r === `*/${query.subresource}` && query.subresource !== undefined))) return false;
    if (rule.resourceNames && rule.resourceNames.length > 0) return query.name !== undefined && rule.resourceNames.includes(query.name);
    return true;
  });
  if (matches) return true;
  return rules.incomplete || rules.unknown ? undefined : false;
}

/** A query in words: `delete pods "web-1" in namespace "shop"`, `patch deployments/scale (apps) at the cluster scope`. */
export function accessQueryText(q: AccessQuery): string {
  const resource = q.subresource ? `${q.resource}/${q.subresource}` : q.resource;
  const group = q.group ? ` (${q.group})` : '';
  const name = q.name ? ` "${q.name}"` : '';
  const where = q.namespace ? ` in namespace "${q.namespace}"` : ' at the cluster scope';
  return `${q.verb} ${resource}${group}${name}${where}`;
}
