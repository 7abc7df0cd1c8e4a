import type { Disposable } from '../../base';
import type { KubeObject } from '../../informer';
import type { NodePresentation } from './node-presentation';

/** An object row as a decorator sees it (an ObjectNode is one). */
export interface ObjectRow {
  readonly entryId: string;
  readonly namespace: string;
  readonly name: string;
  readonly object: KubeObject;
}

/** Which rows a decorator now draws differently: every object row of some watches, or some rows. */
export type RowDecorationChange = { readonly entryIds: readonly string[] } | { readonly rows: readonly Pick<ObjectRow, 'entryId' | 'namespace' | 'name'>[] };

/**
 * Adds to an object row what the tree itself does not know: the actions it offers (its context
 * value) and the state of a write on it (pending, confirmed, the view may be behind). Pure on its
 * inputs at the time of the call; `onDidChange` says which rows to draw again.
 */
export interface RowDecorator {
  decorate(row: ObjectRow, presentation: NodePresentation): NodePresentation;
  /** A Markdown paragraph put before the row's tooltip, or undefined. */
  tooltip(row: ObjectRow): string | undefined;
  onDidChange(listener: (change: RowDecorationChange) => void): Disposable;
}
