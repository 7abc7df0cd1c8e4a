import type { ExtraColumn, ExtraColumnSource } from './extra-columns';

/** How a configured context spec ("" = the current-context) and the context name it resolved to map onto each other. */
export interface ContextNames {
  /** The spec of the configured context that resolved to `name`; undefined when none did. */
  specOf(name: string): string | undefined;
  /** The name a spec resolved to; undefined when it is not usable. */
  nameOf(spec: string): string | undefined;
}

/**
 * A source keyed by configured context spec (metrics: one hub per spec, "" for the current
 * context) as a table sees it: tables name contexts as their entries resolved them (`simulated`).
 * Invariant: every call reaches the source with the spec, every change reaches the table with
 * the name; a name no configured context resolved to gets no values (never another context's).
 */
export function contextNamedColumns(source: ExtraColumnSource, names: ContextNames): ExtraColumnSource {
  const wrapped = new WeakMap<ExtraColumn, ExtraColumn>();
  const named = (column: ExtraColumn): ExtraColumn => {
    let w = wrapped.get(column);
    if (!w) {
      w = {
        id: column.id,
        header: column.header,
        cell: (context, obj) => {
          const spec = names.specOf(context);
          return spec === undefined ? { text: '—', tone: 'muted', title: `no configured context resolved to ${context}` } : column.cell(spec, obj);
        },
      };
      wrapped.set(column, w);
    }
    return w;
  };
  return {
    columnsFor: (kind) => source.columnsFor(kind).map(named),
    show: (context, kind, namespaces) => {
      const spec = names.specOf(context);
      return spec === undefined ? { dispose: () => {} } : source.show(spec, kind, namespaces);
    },
    onDidChange: (listener) =>
      source.onDidChange((change) => {
        const name = names.nameOf(change.context);
        if (name !== undefined) listener({ ...change, context: name });
      }),
  };
}

/** What `managerContextNames` reads of the watch manager. */
export interface ContextNameSource {
  entries(): readonly { readonly id: string; readonly context: string }[];
  contextSpecOf(id: string): string | undefined;
  contextKubeconfig(spec: string): { readonly contextName: string } | undefined;
}

/** Names and specs as the manager's entries and sessions hold them now (read at each call: a switch moves them). */
export function managerContextNames(manager: ContextNameSource): ContextNames {
  return {
    specOf: (name) => {
      const entry = manager.entries().find((e) => e.context === name);
      return entry && manager.contextSpecOf(entry.id);
    },
    nameOf: (spec) => manager.contextKubeconfig(spec)?.contextName,
  };
}
