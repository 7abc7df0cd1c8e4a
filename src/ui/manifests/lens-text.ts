import type { DocumentState } from '../../manifests/manifest-state';
import { shortField } from '../../manifests/drift';
import { shorten } from '../watch-state-text';

/**
 * The words above a manifest document: its state and the commands it offers. The first lens
 * says the state (and names the context it compares with); the others are commands.
 */

export type LensCommand = 'showDiff' | 'apply' | 'refresh';

export interface LensLine {
  /** The state, one line. */
  title: string;
  /** A hover: the whole field list, the reason in full. */
  tooltip?: string;
  commands: readonly LensCommand[];
}

/** "40 s", "3 min", "2 h" ago. */
export function agoText(at: number, now: number): string {
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m} min ago`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ago` : `${Math.floor(h / 24)} days ago`;
}

/** "2 fields (spec.replicas, containers[web].image)" */
export function fieldsText(fields: readonly string[]): string {
  const shown = fields.slice(0, 2).map(shortField);
  const more = fields.length > 2 ? `, +${fields.length - 2}` : '';
  return `${fields.length} ${fields.length === 1 ? 'field' : 'fields'} (${shown.join(', ')}${more})`;
}

/** The lens of a document in state `s` at `now` (see the file comment). */
export function lensLine(s: DocumentState, now: number): LensLine {
  switch (s.kind) {
    case 'checking':
      return { title: `checking… · ${s.context}`, tooltip: `Kube Watch is ${s.why} on context ${s.context}.`, commands: [] };
    case 'in-sync':
      return { title: `in sync · ${s.context}`, tooltip: `The cluster of context ${s.context} holds what this document says (server-side dry run: defaults and fields other managers own are not drift).`, commands: [] };
    case 'drifted': {
      const conflicts = s.conflicts.length > 0 ? ` · owned by ${s.conflicts.join(', ')}` : '';
      return { title: `drifted · ${fieldsText(s.fields)}${conflicts} · ${s.context}`, tooltip: `Applying this document would change: ${s.fields.join(', ')}.`, commands: ['showDiff', 'apply'] };
    }
    case 'missing':
      return { title: `not on the cluster · ${s.context}${s.note ? ` · ${shorten(s.note, 80)}` : ''}`, ...(s.note ? { tooltip: s.note } : {}), commands: ['apply'] };
    case 'deleted':
      return { title: `deleted on the cluster ${agoText(s.at, now)} · ${s.context}`, commands: ['apply'] };
    case 'forbidden':
      return { title: `cannot read: forbidden · ${s.context}`, tooltip: shorten(s.reason, 300), commands: [] };
    case 'unreachable': {
      const last = s.lastInSyncAt !== undefined ? ` · last seen in sync ${agoText(s.lastInSyncAt, now)}` : '';
      return { title: `cluster ${s.cause}${last} · ${s.context}`, tooltip: `The watch of context ${s.context} is ${s.cause} since ${agoText(s.since, now)}: the state shown is not live.`, commands: ['refresh'] };
    }
    case 'unknown-kind':
      return { title: `unknown kind: the cluster does not serve ${s.type} · ${s.context}`, tooltip: `No resource of apiVersion ${s.apiVersion} serves this kind on context ${s.context} (install its CustomResourceDefinition first).`, commands: [] };
    case 'invalid':
      return { title: `refused by the cluster: ${shorten(s.message, 90)} · ${s.context}`, tooltip: s.message, commands: [] };
    case 'no-cluster':
      return { title: `not compared: ${shorten(s.reason, 100)}`, tooltip: s.reason, commands: [] };
  }
}

/** The command lenses' titles. */
export const LENS_COMMAND_TITLES: Record<LensCommand, string> = { showDiff: 'Show Diff', apply: 'Apply', refresh: 'Compare again' };
