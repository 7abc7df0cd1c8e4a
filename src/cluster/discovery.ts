import { AbortedError, ApiError } from '../base';
import { type KubeTransport, type ResourceType } from '../informer';

/**
 * The server has no watchable resource type by that spelling (or the group it names does not
 * exist). Invariant: `message` is one line and quotes the spelling as given.
 */
export class UnknownResourceError extends Error {
  constructor(readonly spelling: string) {
    super(`the server has no resource type "${spelling}"`);
    this.name = 'UnknownResourceError';
  }
}

/** One entry of an APIResourceList. */
interface ApiResource {
  name?: string;
  singularName?: string;
  namespaced?: boolean;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
}

interface ApiResourceList {
  resources?: ApiResource[];
}

interface ApiGroup {
  name?: string;
  versions?: { version?: string }[];
  preferredVersion?: { version?: string };
}

/** A watchable resource type with the names kubectl accepts for it. */
interface Candidate {
  type: ResourceType;
  singular: string;
  shortNames: string[];
}

/** One group as discovery lists it; versions in preference order (preferred first). */
interface GroupInfo {
  name: string;
  versions: string[];
}

/** How kubectl may mean a spelling: `name`, `name.group` or `name.version.group`. */
interface Reading {
  name: string;
  group?: string;
  version?: string;
}

/**
 * Resolves a resource type the way kubectl does, through discovery:
 * `pods`, `pod`, `po` (short name), `Pod` (kind), `deployments.apps`, `deployments.v1.apps`,
 * `widgets.example.com`, `widgets.v1.example.com`. Matching is case-insensitive. Plural or
 * singular names win over short names, which win over kinds; among equals the core group
 * wins, then groups in the server's order. Within a group the preferred version is used unless
 * the spelling names a version or the resource exists only in another version. Subresources and
 * types that cannot be listed and watched are never returned.
 * Throws UnknownResourceError when nothing matches; transport and API errors propagate.
 * Nothing is cached between calls.
 */
export async function resolveResourceType(transport: KubeTransport, spelling: string, signal: AbortSignal): Promise<ResourceType> {
  const wanted = spelling.trim().toLowerCase();
  if (!wanted || /[\s/]/.test(wanted)) throw new UnknownResourceError(spelling);
  const d = new DiscoverySession(transport, signal);
  const readings = readingsOf(wanted);

  // A fully qualified reading (name.version.group) whose group and version exist is taken as such.
  for (const r of readings) {
    if (!r.group || !r.version) continue;
    const group = await d.group(r.group);
    if (!group?.versions.includes(r.version)) continue;
    const found = pick(await d.resources(r.group, r.version), r.name);
    if (found) return found;
  }
  // name.group, then the bare name across every group.
  for (const r of readings) {
    if (r.version) continue;
    if (r.group !== undefined) {
      const group = await d.group(r.group);
      if (!group) continue;
      const found = pick(await d.groupResources(group, false), r.name) ?? pick(await d.groupResources(group, true), r.name);
      if (found) return found;
      continue;
    }
    // The core group comes first, so a plural or singular name there wins without asking the others.
    const core = await d.group('');
    const inCore = core && pickByName(await d.groupResources(core, false), r.name);
    if (inCore) return inCore;
    const found = pick(await d.everything(false), r.name) ?? pick(await d.everything(true), r.name);
    if (found) return found;
  }
  throw new UnknownResourceError(spelling);
}

/**
 * Every watchable resource type the server offers, one per group and resource (preferred
 * version first), core group first, then groups in the server's order. Groups whose discovery
 * fails (an unavailable aggregated API) are left out.
 */
export async function listResourceTypes(transport: KubeTransport, signal: AbortSignal): Promise<ResourceType[]> {
  const d = new DiscoverySession(transport, signal);
  return (await d.everything(true)).map((c) => c.type);
}

function readingsOf(wanted: string): Reading[] {
  const out: Reading[] = [];
  const parts = wanted.split('.');
  if (parts.length >= 3) out.push({ name: parts[0], version: parts[1], group: parts.slice(2).join('.') });
  if (parts.length >= 2) out.push({ name: parts[0], group: parts.slice(1).join('.') });
  // Names, short names and kinds never contain a dot: a dotted spelling is always qualified.
  else out.push({ name: wanted });
  return out;
}

/** The first candidate by plural or singular name, else by short name, else by kind. */
function pick(candidates: Candidate[], name: string): ResourceType | undefined {
  return (
    pickByName(candidates, name) ??
    candidates.find((c) => c.shortNames.includes(name))?.type ??
    candidates.find((c) => c.type.kind.toLowerCase() === name)?.type
  );
}

function pickByName(candidates: Candidate[], name: string): ResourceType | undefined {
  return candidates.find((c) => c.type.resource === name || c.singular === name)?.type;
}

/**
 * Discovery requests for one resolution, each made at most once. Lives only as long as the call
 * that made it, so nothing outlives a resolution.
 */
class DiscoverySession {
  private groupsPromise: Promise<GroupInfo[]> | undefined;
  private readonly lists = new Map<string, Promise<Candidate[]>>();

  constructor(
    private readonly transport: KubeTransport,
    private readonly signal: AbortSignal,
  ) {}

  /** The core group ('' with its versions from /api) and every group from /apis. */
  groups(): Promise<GroupInfo[]> {
    this.groupsPromise ??= Promise.all([
      this.transport.getJson<{ versions?: string[] }>('/api', {}, this.signal),
      this.transport.getJson<{ groups?: ApiGroup[] }>('/apis', {}, this.signal),
    ]).then(([core, named]) => {
      const out: GroupInfo[] = [{ name: '', versions: (core.versions ?? []).filter(isNonEmptyString) }];
      for (const g of named.groups ?? []) {
        if (!g.name) continue;
        const all = (g.versions ?? []).map((v) => v.version).filter(isNonEmptyString);
        const preferred = g.preferredVersion?.version;
        const versions = preferred && all.includes(preferred) ? [preferred, ...all.filter((v) => v !== preferred)] : all;
        out.push({ name: g.name, versions });
      }
      return out;
    });
    return this.groupsPromise;
  }

  async group(name: string): Promise<GroupInfo | undefined> {
    return (await this.groups()).find((g) => g.name === name);
  }

  /** The watchable types of one group version. A 404 (version gone meanwhile) yields none. */
  resources(group: string, version: string): Promise<Candidate[]> {
    const key = `${group}/${version}`;
    let p = this.lists.get(key);
    if (!p) {
      const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
      p = this.transport.getJson<ApiResourceList>(path, {}, this.signal).then(
        (list) => candidatesOf(list, group, version),
        (err: unknown) => {
          if (err instanceof ApiError && err.code === 404) return [];
          throw err;
        },
      );
      this.lists.set(key, p);
    }
    return p;
  }

  /**
   * The group's types: those of the preferred version, then (with `allVersions`) those found
   * only in other versions, each resource once.
   */
  async groupResources(group: GroupInfo, allVersions: boolean): Promise<Candidate[]> {
    const out: Candidate[] = [];
    const seen = new Set<string>();
    for (const version of allVersions ? group.versions : group.versions.slice(0, 1)) {
      for (const c of await this.resources(group.name, version)) {
        if (seen.has(c.type.resource)) continue;
        seen.add(c.type.resource);
        out.push(c);
      }
    }
    return out;
  }

  /**
   * Every group's types in discovery order. A group whose discovery fails is skipped (like
   * kubectl's "unable to retrieve the complete list of server APIs"); a failing core group, or
   * every group failing, is an error.
   */
  async everything(allVersions: boolean): Promise<Candidate[]> {
    const groups = await this.groups();
    const settled = await Promise.allSettled(groups.map((g) => this.groupResources(g, allVersions)));
    if (this.signal.aborted) throw new AbortedError('discovery aborted');
    const first = settled[0];
    if (first?.status === 'rejected') throw first.reason;
    return settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
  }
}

function candidatesOf(list: ApiResourceList, group: string, version: string): Candidate[] {
  const out: Candidate[] = [];
  for (const r of list.resources ?? []) {
    if (!r.name || r.name.includes('/') || !r.kind) continue;
    const verbs = r.verbs ?? [];
    if (!verbs.includes('list') || !verbs.includes('watch')) continue;
    out.push({
      type: { group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced === true },
      singular: (r.singularName || r.kind).toLowerCase(),
      shortNames: (r.shortNames ?? []).map((s) => s.toLowerCase()),
    });
  }
  return out;
}

function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v !== '';
}
