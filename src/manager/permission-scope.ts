import { AbortedError } from '../base';
import { rulesAllow, type AccessAnswer, type AccessQuery, type AccessReviewCache } from '../cluster/access-review';
import { resourceTypeName, type KubeTransport, type ResourceType } from '../informer';

/**
 * Where one type is watched, as the user's permissions allow, decided before its first watch
 * (issue 23, part 2): cluster wide when the user may list and watch it there; otherwise in the
 * namespaces where they may (the context's namespace first, as kubectl does); nowhere, quietly,
 * when they may in none. A refusal that starts later (RBAC changed while watching) is not this:
 * the informer shows it as it always did.
 *
 * Invariants: a scope never throws but for AbortedError; a review that cannot be made (network,
 * an old server, no write on the transport) counts as allowed, so the watch is tried and the
 * server answers in its own words (`guessed` says so, and a later 403 asks again).
 */
export interface PermissionScope {
  /** What it was decided for: the type and the configured namespaces (see `scopeKey`). */
  readonly key: string;
  /** One per namespace to watch ('' = all namespaces, or the cluster scope); `denied` where the user may not list and watch. */
  readonly namespaces: readonly ScopedNamespace[];
  /** True when the namespaces are those the user may list, because the type cannot be listed cluster wide. */
  readonly limited: boolean;
  /** True when some review could not answer: the scope is a guess (asked again after a 403). */
  readonly guessed: boolean;
  /** True when the candidate namespaces were cut at `maxCandidates`. */
  readonly truncated?: boolean;
}

export interface ScopedNamespace {
  readonly namespace: string;
  /** Why the user may not watch here, in words ("you may not list secrets in any namespace you can see"). */
  readonly denied?: string;
}

export interface PermissionScopeInput {
  readonly access: AccessReviewCache;
  /** For the namespace list (only when the user may list namespaces). */
  readonly transport: Pick<KubeTransport, 'list'>;
  readonly type: ResourceType;
  /** The configured namespaces; empty = all namespaces. */
  readonly configured: readonly string[];
  /** The kubeconfig context's namespace; default `default`, as kubectl's. */
  readonly contextNamespace?: string;
  readonly signal: AbortSignal;
  /** How many namespaces are checked at most when looking for those the user may list; default 100. */
  readonly maxCandidates?: number;
}

const VERBS = ['list', 'watch'] as const;
const DEFAULT_MAX_CANDIDATES = 100;
/** Rules reviews in flight at once while candidates are checked. */
const PARALLEL = 8;

/** The key a scope is decided for: another type or other configured namespaces need another decision. */
export function scopeKey(type: ResourceType, configured: readonly string[]): string {
  return JSON.stringify([type.group, type.resource, type.namespaced, configured]);
}

/** Decides where `input.type` is watched (see PermissionScope). */
export async function permissionScope(input: PermissionScopeInput): Promise<PermissionScope> {
  const { type, configured, access, signal } = input;
  const key = scopeKey(type, configured);
  const wide = await mayWatch(access, type, undefined, signal);
  if (wide.allowed) {
    const namespaces = type.namespaced && configured.length > 0 ? configured.map((namespace) => ({ namespace })) : [{ namespace: '' }];
    return { key, namespaces, limited: false, guessed: wide.unknown === true };
  }
  const plural = resourceTypeName(type);
  if (!type.namespaced) return { key, namespaces: [{ namespace: '', denied: deniedWords(`you may not list and watch ${plural}`, wide) }], limited: false, guessed: false };
  if (configured.length > 0) {
    const answers = await inBatches(configured, (ns) => mayWatchIn(access, type, ns, signal));
    const namespaces = configured.map((namespace, i) => (answers[i].allowed ? { namespace } : { namespace, denied: deniedWords(`you may not list and watch ${plural} in ${namespace}`, answers[i]) }));
    return { key, namespaces, limited: false, guessed: answers.some((a) => a.unknown) };
  }
  const candidates = await candidateNamespaces(input);
  const answers = await inBatches(candidates.names, (ns) => mayWatchIn(access, type, ns, signal));
  const allowed = candidates.names.filter((_, i) => answers[i].allowed);
  if (allowed.length === 0) {
    const where = candidates.listed ? 'in any namespace' : `cluster wide or in ${candidates.names[0]}`;
    return { key, namespaces: [{ namespace: '', denied: deniedWords(`you may not list and watch ${plural} ${where}`, wide) }], limited: false, guessed: false, truncated: candidates.truncated };
  }
  return { key, namespaces: allowed.map((namespace) => ({ namespace })), limited: true, guessed: answers.some((a) => a.unknown), truncated: candidates.truncated };
}

/** Both verbs a watch needs (or `verbs`), in one answer: allowed when all are (an unknown answer counts as allowed). */
async function mayWatch(access: AccessReviewCache, type: ResourceType, namespace: string | undefined, signal: AbortSignal, verbs: readonly string[] = VERBS): Promise<AccessAnswer> {
  const answers = await Promise.all(verbs.map((verb) => access.can(query(type, verb, namespace), signal)));
  const denied = answers.find((a) => !a.allowed);
  if (denied) return denied;
  return answers.some((a) => a.unknown) ? { allowed: true, unknown: true } : { allowed: true };
}

/** In one namespace: its rules review first (one for every type), an access review where the rules cannot tell. */
async function mayWatchIn(access: AccessReviewCache, type: ResourceType, namespace: string, signal: AbortSignal): Promise<AccessAnswer> {
  const rules = await access.rules(namespace, signal);
  const verdicts = VERBS.map((verb) => rulesAllow(rules, query(type, verb, namespace)));
  if (verdicts.every((v) => v === true)) return { allowed: true };
  if (verdicts.some((v) => v === false)) return { allowed: false };
  return mayWatch(access, type, namespace, signal);
}

function query(type: ResourceType, verb: string, namespace: string | undefined): AccessQuery {
  return { verb, group: type.group, resource: type.resource, ...(namespace ? { namespace } : {}) };
}

function deniedWords(what: string, answer: AccessAnswer): string {
  return answer.reason ? `${what} (${answer.reason})` : what;
}

/**
 * The namespaces worth asking about: the context's first (kubectl's default), then, when the user
 * may list namespaces, every namespace in name order, at most `maxCandidates` in all.
 */
async function candidateNamespaces(input: PermissionScopeInput): Promise<{ names: string[]; listed: boolean; truncated: boolean }> {
  const first = input.contextNamespace || 'default';
  const max = Math.max(1, input.maxCandidates ?? DEFAULT_MAX_CANDIDATES);
  const namespaces: ResourceType = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false };
  const may = await mayWatch(input.access, namespaces, undefined, input.signal, ['list']);
  if (!may.allowed || may.unknown) return { names: [first], listed: false, truncated: false };
  let names: string[];
  try {
    const list = await input.transport.list('/api/v1/namespaces', {}, input.signal);
    names = (list.items ?? []).map((n) => (n as { metadata?: { name?: unknown } }).metadata?.name).filter((n): n is string => typeof n === 'string');
  } catch (err) {
    if (err instanceof AbortedError || input.signal.aborted) throw err;
    return { names: [first], listed: false, truncated: false };
  }
  const all = [first, ...names.filter((n) => n !== first).sort()];
  return { names: all.slice(0, max), listed: true, truncated: all.length > max };
}

/** Maps `items` through `fn`, at most PARALLEL at a time, answers in order. */
async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL) out.push(...(await Promise.all(items.slice(i, i + PARALLEL).map(fn))));
  return out;
}
