import { clockTime } from '../../base';
import { pathText, type KeptRemoval, type ReAdded } from '../../edit';

/**
 * What a server-side apply's preview says beside its diff, in words: the fields the user's
 * change would re-add after the server removed them (W07), and the removals server-side apply
 * cannot make because other managers own the fields (W06).
 */

/** `metadata.labels.tier: re-added (removed on the server at 14:02:11 UTC)`, one per field. */
export function reAddedLines(reAdded: readonly ReAdded[], removedAt: number): string[] {
  const when = removedAt > 0 ? ` at ${clockTime(removedAt)}` : ' since you opened it';
  return reAdded.map((r) => `${pathText(r.field)}: re-added (removed on the server${when})`);
}

/**
 * `data.IMAGE stays: ci manages it, and server-side apply removes only fields kube-watch applied
 * (saving as an update removes it).`, one per field.
 */
export function keptLines(kept: readonly KeptRemoval[], manager: string): string[] {
  return kept.map((k) => {
    const who = k.managers.length === 0 ? 'no field manager records it' : `${k.managers.join(', ')} ${k.managers.length === 1 ? 'manages' : 'manage'} it`;
    return `${pathText(k.field)} stays: ${who}, and server-side apply removes only fields ${manager} applied (saving as an update removes it).`;
  });
}
