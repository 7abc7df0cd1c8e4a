import type { WatchEntry } from '../manager';

/**
 * The reason there is nothing to watch at all: every entry failed because the kubeconfig cannot
 * be read, and none runs on a configuration read before. Undefined while at least one entry has
 * a usable kubeconfig or a running informer (or there are no entries). The view then shows its
 * welcome content (a "Pick a Kubeconfig File" button) instead of a tree of errors.
 */
export function kubeconfigProblem(entries: readonly WatchEntry[]): string | undefined {
  if (entries.length === 0 || !entries.every((e) => e.errorKind === 'kubeconfig' && !e.informer)) return undefined;
  return entries[0].error ?? 'the kubeconfig cannot be read';
}

/**
 * Why the kubeconfig read last failed while watches go on with the configuration read before
 * (a bad path or a file caught mid-write): the view keeps its objects and says this above them.
 */
export function kubeconfigReloadProblem(entries: readonly WatchEntry[]): string | undefined {
  return entries.find((e) => e.informer && e.errorKind === 'kubeconfig' && e.error)?.error;
}
