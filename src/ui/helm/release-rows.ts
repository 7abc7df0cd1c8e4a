import { stringify } from 'yaml';
import type { HelmRelease, ManifestObject, ReleaseDetails, RevisionRecord } from '../../helm';
import { humanDuration } from '../age';

/** A release's row: `NAME  rev N · STATUS · chart-version · AGE` (the chart only once a payload was opened: labels do not carry it). */
export function releaseRowLabel(r: HelmRelease, now: number, chartVersion?: string): { label: string; description: string } {
  const parts = [`rev ${r.latest.revision}`, r.latest.status];
  if (chartVersion) parts.push(chartVersion);
  if (r.latest.modifiedAt !== undefined) parts.push(humanDuration(Math.max(0, now - r.latest.modifiedAt)));
  return { label: r.name, description: parts.join(' · ') };
}

/** The tooltip of a release row: storage, revisions, and the stuck advice when there is one. */
export function releaseTooltip(r: HelmRelease): string {
  const lines = [`**${r.name}** in ${r.namespace}: revision ${r.latest.revision}, ${r.latest.status}`, `${r.revisions.length} revision(s) kept, in ${r.storage === 'secret' ? 'Secrets' : 'ConfigMaps'}`];
  if (r.stuck) lines.push('', `⚠ ${r.stuck.text}`);
  return lines.join('\n\n');
}

/** A revision row of the release's history. */
export function revisionRowLabel(rev: RevisionRecord, now: number): { label: string; description: string } {
  const age = rev.modifiedAt !== undefined ? ` · ${humanDuration(Math.max(0, now - rev.modifiedAt))}` : '';
  return { label: `rev ${rev.revision}`, description: `${rev.status}${age}` };
}

/** How a manifest object stands on the cluster now, as the caller read it. */
export type LiveState = { readonly found: true; readonly summary: string } | { readonly found: false; readonly why: string };

/** The text of an opened revision: header, values (user and computed), objects with their live state, notes, hooks, history. */
export function releaseDocumentText(d: ReleaseDetails, release: HelmRelease, context: string, objects: readonly { object: ManifestObject; namespace: string; live: LiveState | undefined }[]): string {
  const lines: string[] = [];
  lines.push(`# Helm release ${d.name} in ${release.namespace} (context ${context})`);
  lines.push(`# revision ${d.revision}: ${d.status}${d.description ? ` (${d.description})` : ''}`);
  lines.push(`# chart ${d.chartName}-${d.chartVersion}, app version ${d.appVersion || 'unknown'}`);
  if (d.lastDeployed) lines.push(`# last deployed ${d.lastDeployed}`);
  if (release.stuck) lines.push(`# ⚠ ${release.stuck.text}`);
  lines.push('', '# ---- USER-SUPPLIED VALUES (helm get values)', yamlOf(d.userValues));
  lines.push('# ---- COMPUTED VALUES (helm get values --all)', yamlOf(d.computedValues));
  lines.push('# ---- OBJECTS (from the manifest; live state on the cluster)');
  // One line per object, `#   Kind namespace/name: state` (`Kind name` when cluster-scoped): its Reveal lens goes here.
  for (const { object: o, namespace, live } of objects) {
    const state = live === undefined ? 'not read' : live.found ? live.summary : live.why;
    lines.push(`#   ${o.kind} ${namespace ? `${namespace}/` : ''}${o.name}: ${state}`);
  }
  lines.push('', '# ---- HISTORY');
  for (const r of [...release.revisions].reverse()) lines.push(`#   rev ${r.revision}  ${r.status}${r.modifiedAt ? `  ${new Date(r.modifiedAt).toISOString()}` : ''}`);
  if (d.notes) lines.push('', '# ---- NOTES', ...d.notes.trimEnd().split('\n').map((l) => `# ${l}`));
  if (d.hooks.length > 0) {
    lines.push('', '# ---- HOOKS');
    for (const h of d.hooks) lines.push(`#   ${h.kind} ${h.name} (${h.events.join(', ')})${h.lastRun ? ` last run ${h.lastRun}` : ''}`, ...h.manifest.trimEnd().split('\n').map((l) => `#     ${l}`));
  }
  lines.push('', '# ---- MANIFEST (helm get manifest)', d.manifest.trimEnd(), '');
  return lines.join('\n');
}

/** The two sides of a history diff: `values` (user-supplied, then computed) or the manifest. */
export function diffSideText(d: ReleaseDetails, part: 'values' | 'manifest'): string {
  if (part === 'manifest') return `${d.manifest.trimEnd()}\n`;
  return `# user-supplied values\n${yamlOf(d.userValues)}# computed values\n${yamlOf(d.computedValues)}`;
}

function yamlOf(v: Record<string, unknown>): string {
  return Object.keys(v).length === 0 ? '{}\n' : stringify(v, { sortMapEntries: true });
}
