/**
 * The names of the editor tabs of objects: `Deployment∕web` (kind, a division slash that reads as
 * `/` without being a path separator, then the name), in a folder path of the context and the
 * namespace, which VS Code shows as the tab's description (when two tabs share a name) and in the
 * breadcrumbs. So the Deployment and the Service `shop/web` never look the same.
 */
export const KIND_NAME_SLASH = '\u2215';

/** A path segment: no separators, no query or fragment characters, never empty. */
export function pathSegment(s: string): string {
  return s.replace(/[/\\?#]/g, '_') || '_';
}

/** `/context/namespace/Kind∕name` + `suffix`; `_cluster` for cluster-scoped objects, `current-context` when the context has no name. */
export function objectTabPath(context: string, namespace: string, kind: string, name: string, suffix = ''): string {
  return `/${[context || 'current-context', namespace || '_cluster'].map(pathSegment).join('/')}/${pathSegment(`${kind}${KIND_NAME_SLASH}${name}`)}${suffix}`;
}

/**
 * Tells a double click from two single ones: the tree runs an item's command on each click, so a
 * second open of the same object within `windowMs` is the double click that pins its editor, as
 * in the Explorer. `now` is wall-clock milliseconds.
 */
export class DoubleClick {
  private last: { key: string; at: number } | undefined;

  constructor(private readonly windowMs = 500) {}

  /** True when this open of `key` follows another within the window (and starts a new pair). */
  isSecond(key: string, now: number): boolean {
    const second = this.last !== undefined && this.last.key === key && now - this.last.at <= this.windowMs;
    this.last = second ? undefined : { key, at: now };
    return second;
  }
}
