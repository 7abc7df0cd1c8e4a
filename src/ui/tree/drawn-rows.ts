/**
 * What the view last drew of each row (its look) and of each parent (the ids of its children), so
 * that a refresh names only the rows that would be drawn differently.
 *
 * Why: VS Code forgets every row under a refreshed row until it has asked for that row's children
 * again (the extension host drops their elements at once, and gets them back one round trip
 * later). A menu command chosen on such a row in between runs without its row (its argument is
 * undefined), and a user who right-clicked a pod gets a picker instead of the shell. Refreshing a
 * resource row because its resourceVersion moved, or all its object rows because an access review
 * answered, did that several times a second in a live tree. Narrowed, a refresh names a parent
 * only when its own row or its list of children changed, and otherwise the drawn rows below it
 * that changed.
 *
 * Invariants:
 * - `narrow` names every row whose look or children differ from what was drawn, and no row the
 *   view never drew (VS Code ignores those: a row of a fresh node object is reached through its
 *   parent, which is then named instead).
 * - Only what VS Code asked for is remembered (`drew`, `listed`); `narrow` asks the model, it
 *   remembers nothing.
 */
import type { NodePresentation } from './node-presentation';
import type { ViewNode } from './view-nodes';

/**
 * A row as VS Code draws it, in one string: its presentation (not the expansion: VS Code keeps a
 * known row's expansion whatever the item says) and, for an object row, its status key (what
 * its tooltip says beyond the row, e.g. an ephemeral container starting: VS Code asks for a
 * tooltip again only for a row it redraws). `presentation` must be the one just computed for
 * `node` (computing it stamps the object row's status key).
 */
export function rowLook(node: ViewNode, presentation: NodePresentation): string {
  const p = presentation;
  return JSON.stringify([p.label, p.description, p.icon, p.collapsible, p.contextValue, node.kind === 'object' ? node.shownKey : undefined]);
}

export interface DrawnRowsSource<N> {
  /** The row's look now: a string equal to the last one exactly when the row would be drawn the same. */
  lookOf(node: N): string;
  /** The node's children now, as the view would get them. */
  childrenOf(node: N): readonly N[];
}

export class DrawnRows<N extends { readonly id: string }> {
  private readonly looks = new WeakMap<N, string>();
  private readonly listings = new WeakMap<N, readonly string[]>();

  constructor(private readonly source: DrawnRowsSource<N>) {}

  /** The view drew `node` looking like `look`. */
  drew(node: N, look: string): void {
    this.looks.set(node, look);
  }

  /** The view asked for the children of `node` and got `children`. */
  listed(node: N, children: readonly N[]): void {
    this.listings.set(
      node,
      children.map((c) => c.id),
    );
  }

  /**
   * The rows to refresh for a refresh that named `nodes`: each node whose look or children
   * changed; for one that did not change, its drawn descendants that did. May be empty.
   */
  narrow(nodes: readonly N[]): N[] {
    const out = new Set<N>();
    for (const node of nodes) this.narrowInto(node, out);
    return [...out];
  }

  private narrowInto(node: N, out: Set<N>): void {
    const look = this.looks.get(node);
    if (look === undefined || this.source.lookOf(node) !== look) {
      out.add(node);
      return;
    }
    const listed = this.listings.get(node);
    // Its children were never asked for: nothing below it is drawn.
    if (listed === undefined) return;
    const children = this.source.childrenOf(node);
    if (children.length !== listed.length || children.some((c, i) => c.id !== listed[i] || !this.looks.has(c))) {
      out.add(node);
      return;
    }
    const below = new Set<N>();
    for (const child of children) this.narrowInto(child, below);
    for (const n of below) out.add(n);
  }
}
