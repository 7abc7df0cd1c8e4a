import type { ReleaseStorage, RevisionRecord } from './release-record';
import { stuckAdviceOf, type StuckAdvice } from './stuck-release';

/**
 * A release as its revisions' labels show it: the newest revision is the release's state (as
 * `helm list` shows it), the others its history. No payload is read to build it.
 */
export interface HelmRelease {
  readonly name: string;
  readonly namespace: string;
  readonly storage: ReleaseStorage;
  /** The newest revision (highest number). */
  readonly latest: RevisionRecord;
  /** Every revision kept, oldest first. */
  readonly revisions: readonly RevisionRecord[];
  /** Set when the newest revision is stuck pending: what usually unsticks it. */
  readonly stuck: StuckAdvice | undefined;
}

/** The key of a release: its storage, namespace and name (the same name may live under both drivers). */
export function releaseKey(r: { storage: ReleaseStorage; namespace: string; name: string }): string {
  return `${r.storage}/${r.namespace}/${r.name}`;
}

/** Groups revision records into releases, sorted by namespace then name. */
export function releasesFrom(records: Iterable<RevisionRecord>): HelmRelease[] {
  const groups = new Map<string, RevisionRecord[]>();
  for (const r of records) {
    const key = releaseKey(r);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(r);
  }
  const releases: HelmRelease[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => a.revision - b.revision);
    const latest = group[group.length - 1];
    releases.push({ name: latest.name, namespace: latest.namespace, storage: latest.storage, latest, revisions: group, stuck: stuckAdviceOf(group) });
  }
  return releases.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name) || a.storage.localeCompare(b.storage));
}

/** Releases grouped by namespace, namespaces sorted. */
export function releasesByNamespace(releases: readonly HelmRelease[]): Map<string, HelmRelease[]> {
  const out = new Map<string, HelmRelease[]>();
  for (const r of releases) {
    let list = out.get(r.namespace);
    if (!list) out.set(r.namespace, (list = []));
    list.push(r);
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}
