import type { WatchConfig, WatchEntry } from '../../manager';
import { kubeconfigProblem, kubeconfigReloadProblem } from '../kubeconfig-problem';

/** What the Watched Resources view shows, for its description (beside the title) and tooltips. */
export interface ViewScope {
  /** `kind-dev · default · app=web`: context, namespaces, then any selector. */
  description: string;
  /** Whether a label or field selector hides objects the namespaces would otherwise show. */
  filtered: boolean;
  /** One line per part, for a tooltip: `Context: kind-dev`, `Namespaces: all`, `Label selector: app=web`. */
  lines: string[];
}

/** Names listed in full up to this many; more read "N namespaces". */
const LISTED = 2;

/**
 * The view's scope from the configuration and the entries: the contexts as resolved (the
 * current-context by its name once read), the namespaces (all when none are configured), and
 * the selectors, which come last and in full so a filter in effect is never hidden by the
 * context's name. Nothing to show while paused or without a kubeconfig: the welcome content speaks.
 */
export function viewScope(config: Pick<WatchConfig, 'contexts' | 'namespaces' | 'labelSelector' | 'fieldSelector'>, entries: readonly WatchEntry[]): ViewScope {
  if (kubeconfigProblem(entries) !== undefined) return { description: 'no kubeconfig', filtered: false, lines: [] };
  const contexts = resolvedContexts(config.contexts, entries);
  const namespaces = config.namespaces;
  // All namespaces, but some types only where the user may list them (issue 23): say which, for
  // the context where that is so (each context's user has access rules of their own).
  const permitted = (of: readonly WatchEntry[]) => (namespaces.length === 0 ? permittedNamespaces(of) : []);
  const namespacesText = (of: readonly WatchEntry[]) => {
    const p = permitted(of);
    return namespaces.length > 0 ? listed(namespaces, 'namespaces') : p.length > 0 ? `${listed(p, 'namespaces')}: the namespaces you may list` : 'all namespaces';
  };
  const perContext = contexts.length > 1 && contexts.some((c) => permitted(entriesOf(entries, c)).length > 0);
  const parts = perContext
    ? [contexts.map((c) => `${c} · ${namespacesText(entriesOf(entries, c))}`).join('; ')]
    : [listed(contexts, 'contexts') || 'current context', namespacesText(entries)];
  const namespaceLine = (of: readonly WatchEntry[]) => (namespaces.length > 0 ? namespaces.join(', ') : permitted(of).length > 0 ? `${permitted(of).join(', ')} (the namespaces you may list)` : 'all');
  const lines = [
    `${contexts.length > 1 ? 'Contexts' : 'Context'}: ${contexts.join(', ') || 'the current context'}`,
    ...(perContext ? contexts.map((c) => `Namespaces in ${c}: ${namespaceLine(entriesOf(entries, c))}`) : [`Namespaces: ${namespaceLine(entries)}`]),
  ];
  if (config.labelSelector) {
    parts.push(config.labelSelector);
    lines.push(`Label selector: ${config.labelSelector}`);
  }
  if (config.fieldSelector) {
    parts.push(`fields ${config.fieldSelector}`);
    lines.push(`Field selector: ${config.fieldSelector}`);
  }
  return { description: parts.join(' · '), filtered: Boolean(config.labelSelector || config.fieldSelector), lines };
}

/** The entries of one context (by its resolved name). */
function entriesOf(entries: readonly WatchEntry[], context: string): WatchEntry[] {
  return entries.filter((e) => e.context === context);
}

/**
 * The namespaces watched in place of all namespaces because the user may list some types only
 * there (entries `limitedByAccess`), in name order; empty when every type is watched cluster wide.
 */
function permittedNamespaces(entries: readonly WatchEntry[]): string[] {
  const names = new Set(entries.filter((e) => e.limitedByAccess).map((e) => e.namespace));
  return [...names].sort();
}

/** Configured contexts, or the name the current-context resolved to (in the entries). */
function resolvedContexts(configured: readonly string[], entries: readonly WatchEntry[]): string[] {
  if (configured.length > 0) return [...configured];
  const names = new Set(entries.map((e) => e.context).filter((c) => c !== ''));
  return [...names];
}

function listed(names: readonly string[], plural: string): string {
  if (names.length === 0) return '';
  return names.length <= LISTED ? names.join(', ') : `${names.length} ${plural}`;
}

/**
 * The line above the tree: its scope (a view alone in its container has its description hidden
 * by VS Code, so the scope must be said here to be seen), after why the kubeconfig could not be
 * read again when the watches go on with the one read before. Undefined while the tree is empty:
 * VS Code shows the welcome content (paused, no kubeconfig, nothing to watch) only without a message.
 */
export function viewMessage(config: Parameters<typeof viewScope>[0], entries: readonly WatchEntry[]): string | undefined {
  if (entries.length === 0 || kubeconfigProblem(entries) !== undefined) return undefined;
  const scope = viewScope(config, entries).description;
  const reload = kubeconfigReloadProblem(entries);
  return reload === undefined ? `Showing ${scope}` : `${reloadSentence(reload)}. Showing ${scope}`;
}

/** The reason as a sentence that names the kubeconfig once: "Kubeconfig: " only when the reason does not say it. */
function reloadSentence(reason: string): string {
  return /kubeconfig/i.test(reason) ? reason.charAt(0).toUpperCase() + reason.slice(1) : `Kubeconfig: ${reason}`;
}
