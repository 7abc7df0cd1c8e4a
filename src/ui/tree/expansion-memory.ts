/** How many expanded nodes are remembered; the longest-unexpanded are forgotten beyond it. */
const REMEMBERED = 2000;

/**
 * The nodes the user expanded, by id, so that a node comes back expanded when VS Code asks for
 * it again: after its parent is collapsed and re-expanded, or after it left the tree and returned
 * with the same id (a selector or namespace change restarts the watches, and namespace groups
 * vanish with their objects). Collapsing a node forgets it, never its children. Ids are stable
 * per (watch, namespace, object), so what is remembered means the same thing when it returns.
 */
export class ExpansionMemory {
  private readonly expanded = new Set<string>();

  expand(id: string): void {
    this.expanded.delete(id); // re-inserted last: the most recently expanded are kept longest
    this.expanded.add(id);
    if (this.expanded.size > REMEMBERED) this.expanded.delete(this.expanded.values().next().value as string);
  }

  collapse(id: string): void {
    this.expanded.delete(id);
  }

  isExpanded(id: string): boolean {
    return this.expanded.has(id);
  }

  get size(): number {
    return this.expanded.size;
  }
}
