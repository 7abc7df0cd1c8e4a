import type { WatchEntry } from '../manager';

/**
 * The reason there is nothing to watch at all: every entry failed because the kubeconfig cannot
 * be read. Undefined while at least one entry has a usable kubeconfig (or there are no entries).
 * The view then shows its welcome content with this reason instead of a tree of errors.
 */
export function kubeconfigProblem(entries: readonly WatchEntry[]): string | undefined {
  if (entries.length === 0 || !entries.every((e) => e.errorKind === 'kubeconfig')) return undefined;
  return entries[0].error ?? 'the kubeconfig cannot be read';
}
