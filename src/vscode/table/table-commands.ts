import * as vscode from 'vscode';
import type { Clock } from '../../base';
import { labelSelectorText } from '../../cluster/label-selector-text';
import type { ResourceType } from '../../informer';
import { printerKind } from '../../ui/printers';
import type { Staleness } from '../../ui/staleness';
import { kindSuggestions, lookupKind, TableModel, type ColumnPrefs, type ExtraColumnSource, type TableSource, type TableState } from '../../ui/table';
import { presentObject, type RowDecorator } from '../../ui/tree';
import { TABLE_VIEW_TYPE, TablePanel, type TablePanelHost } from './table-panel';

export const OPEN_TABLE_COMMAND = 'kubeWatch.openTable';
/** globalState key: per kind (`pods`, `widgets.example.com`), the columns a user hid and their order. */
const COLUMNS_KEY = 'kubeWatch.table.columns';

export interface TablesOptions {
  /** The tree's staleness, so the table draws a watch stale exactly when the tree does. */
  stalenessOf?: (entryId: string) => Staleness | undefined;
  isPaused?: () => boolean;
  /** The rows' actions (the tree's decorator): a row's context menu offers what its tree row offers. */
  decorator?: RowDecorator;
  /** Columns borrowed for pods and nodes (CPU, memory from metrics.k8s.io). */
  extra?: ExtraColumnSource;
  /** Types the server offers on a context (discovery), for `:` beyond the watched ones. */
  typesOf?: (context: string) => readonly ResourceType[];
  /** A `:` spelling neither knows, resolved through the context's discovery (a CRD's short name). */
  resolveKind?: (context: string, text: string) => Promise<ResourceType | undefined>;
}

export interface TablesRegistration extends vscode.Disposable {
  /** Opens (or reveals) the table of a scope. */
  open(state: TableState): TablePanel;
  /** Open tables (for tests). */
  readonly panels: ReadonlySet<TablePanel>;
}

/**
 * Open as Table (`kubeWatch.openTable`): from a resource, namespace, workload or catalog type row
 * of the tree, or from the palette with a kind picker. One panel per type (a second open reveals
 * it, set to the new namespace and filter), restored after a reload by its serializer, fed by the
 * manager's informers (the tree's), never a watch of its own.
 */
export function registerTables(manager: TableSource, clock: Clock, memento: vscode.Memento, extensionUri: vscode.Uri, options: TablesOptions = {}): TablesRegistration {
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const panels = new Set<TablePanel>();
  const keyOf = (s: TableState) => `${s.context}\n${s.group}\n${s.resource}`;
  const prefsOf = (columnsKey: string): ColumnPrefs | undefined => memento.get<Record<string, ColumnPrefs>>(COLUMNS_KEY, {})[columnsKey];

  /** `loadLater` for a new panel: its page goes to VS Code before the objects are read (TableModelOptions). */
  const modelOf = (state: TableState, loadLater = false) => {
    const columnsKey = state.group ? `${state.resource}.${state.group}` : state.resource;
    return new TableModel(manager, state, {
      clock,
      stalenessOf: options.stalenessOf,
      isPaused: options.isPaused,
      extra: options.extra,
      columnPrefs: prefsOf(columnsKey),
      loadLater,
      contextValueOf: (row) => {
        const type = manager.entry(row.entryId)?.type;
        const base = presentObject(row.object, row.name, type && printerKind(type), clock.now());
        return options.decorator ? options.decorator.decorate(row, base).contextValue : base.contextValue;
      },
    });
  };

  const watchedTypes = (context: string): ResourceType[] => {
    const seen = new Map<string, ResourceType>();
    for (const e of manager.entries()) if (e.type && e.context === context) seen.set(`${e.type.group}/${e.type.resource}`, e.type);
    return [...seen.values()];
  };

  const host: TablePanelHost = {
    saveColumns: (key, prefs) => void memento.update(COLUMNS_KEY, { ...memento.get<Record<string, ColumnPrefs>>(COLUMNS_KEY, {}), [key]: prefs }),
    kinds: (model) => kindSuggestions(watchedTypes(model.scope.context)),
    goto: async (model, text) => {
      const context = model.scope.context;
      const type = lookupKind(text, [...watchedTypes(context), ...(options.typesOf?.(context) ?? [])]) ?? (await options.resolveKind?.(context, text));
      if (!type) {
        void vscode.window.showWarningMessage(`No kind "${text.replace(/^:/, '').trim()}" on ${context || 'this context'}: try pods, deploy, svc, or a resource's plural name.`);
        return;
      }
      const namespace = type.namespaced ? model.state().namespace : '';
      open({ context, group: type.group, resource: type.resource, namespace });
    },
  };

  const adopt = (panel: vscode.WebviewPanel, state: TableState): TablePanel => {
    const table = new TablePanel(panel, modelOf(state, true), host, root, (t) => panels.delete(t));
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'kube-watch.svg');
    panels.add(table);
    return table;
  };

  const open = (state: TableState): TablePanel => {
    const existing = [...panels].find((p) => keyOf(p.model.scope) === keyOf(state));
    if (existing) {
      const now = existing.model.state();
      if (now.namespace !== state.namespace || (state.filter ?? '') !== (now.filter ?? '')) existing.replaceModel(modelOf(state));
      existing.panel.reveal(undefined, false);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(TABLE_VIEW_TYPE, 'Table', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [root] });
    return adopt(panel, state);
  };

  const subscriptions = [
    vscode.commands.registerCommand(OPEN_TABLE_COMMAND, async (arg?: unknown) => {
      const state = stateOfArg(manager, arg) ?? (arg === undefined ? await pickKind(manager) : undefined);
      if (!state) {
        if (arg !== undefined) void vscode.window.showInformationMessage('Open as Table works on a resource type, a namespace or a workload of the Kube Watch view.');
        return;
      }
      open(state);
    }),
    vscode.window.registerWebviewPanelSerializer(TABLE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        const restored = asTableState(state);
        if (!restored) {
          panel.dispose();
          return;
        }
        adopt(panel, restored);
      },
    }),
  ];

  return {
    open,
    panels,
    dispose() {
      for (const p of [...panels]) p.dispose();
      for (const s of subscriptions) s.dispose();
    },
  };
}

/** The table a tree row opens: its type (a resource or catalog row), in its namespace, or a workload's pods by its selector. */
function stateOfArg(manager: TableSource, arg: unknown): TableState | undefined {
  if (typeof arg !== 'object' || arg === null) return asTableState(arg);
  const node = arg as { kind?: unknown; entryIds?: unknown; entryId?: unknown; namespace?: unknown; type?: ResourceType; spec?: unknown; object?: { spec?: { selector?: unknown } } };
  const entryOf = (id: unknown) => (typeof id === 'string' ? manager.entry(id) : undefined);
  switch (node.kind) {
    case 'resource': {
      const entries = (Array.isArray(node.entryIds) ? node.entryIds : []).map(entryOf).filter((e) => e?.type);
      const first = entries[0];
      if (!first?.type) return undefined;
      return { context: first.context, group: first.type.group, resource: first.type.resource, namespace: entries.length === 1 ? first.namespace : '' };
    }
    case 'namespace': {
      const e = entryOf(node.entryId);
      return e?.type && typeof node.namespace === 'string' ? { context: e.context, group: e.type.group, resource: e.type.resource, namespace: node.namespace } : undefined;
    }
    case 'object': {
      const e = entryOf(node.entryId);
      const selector = node.object?.spec?.selector;
      if (!e?.type || typeof node.namespace !== 'string') return undefined;
      // A workload: its pods, by its selector (a Service's is a plain map).
      const text = selector && typeof selector === 'object' && ('matchLabels' in selector || 'matchExpressions' in selector) ? labelSelectorText(selector) : labelSelectorText({ matchLabels: selector });
      if (!text) return undefined;
      return { context: e.context, group: '', resource: 'pods', namespace: node.namespace, filter: `-l ${text}` };
    }
    case 'apiType': {
      const apiType = node as { type?: ResourceType; parent?: { parent?: { context?: string } } };
      const context = apiType.parent?.parent?.context;
      return apiType.type && typeof context === 'string' ? { context, group: apiType.type.group, resource: apiType.type.resource, namespace: '' } : undefined;
    }
    default:
      return asTableState(arg);
  }
}

function asTableState(value: unknown): TableState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Partial<TableState>;
  if (typeof s.context !== 'string' || typeof s.group !== 'string' || typeof s.resource !== 'string') return undefined;
  return { context: s.context, group: s.group, resource: s.resource, namespace: typeof s.namespace === 'string' ? s.namespace : '', ...(typeof s.filter === 'string' ? { filter: s.filter } : {}) };
}

/** The palette's kind picker: the watched types, by context. */
async function pickKind(manager: TableSource): Promise<TableState | undefined> {
  const items = new Map<string, vscode.QuickPickItem & { state: TableState }>();
  for (const e of manager.entries()) {
    if (!e.type) continue;
    const name = e.type.group ? `${e.type.resource}.${e.type.group}` : e.type.resource;
    const key = `${e.context}\n${name}`;
    if (!items.has(key)) items.set(key, { label: name, description: e.type.kind, detail: e.context || undefined, state: { context: e.context, group: e.type.group, resource: e.type.resource, namespace: '' } });
  }
  if (items.size === 0) {
    void vscode.window.showInformationMessage('No resource type is watched yet: choose one first (Kube Watch: Choose Resources to Watch…).');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick([...items.values()].sort((a, b) => a.label.localeCompare(b.label)), { title: 'Open as Table', placeHolder: 'Kind (pods, deployments.apps, …)', matchOnDescription: true, matchOnDetail: true });
  return picked?.state;
}
