import { tabAlign } from './tab-writer';

/** Where a link points: an object by apiVersion, kind, namespace and name. */
export interface ObjectTarget {
  readonly apiVersion: string;
  readonly kind: string;
  /** '' for a cluster-scoped object. */
  readonly namespace: string;
  readonly name: string;
}

/** A link in a rendered description: line (0-based), column range, and its target. */
export interface DescribeLink {
  readonly line: number;
  readonly start: number;
  readonly end: number;
  readonly target: ObjectTarget;
}

/** A rendered description: its text and the links in it. */
export interface Description {
  readonly text: string;
  readonly links: DescribeLink[];
}

/**
 * kubectl describe's PrefixWriter: each line starts with two spaces per level, its cells are
 * separated by tabs, and the whole is aligned as Go's tabwriter aligns it. Links name a text
 * on the current line (found again after alignment, which only pads between cells).
 */
export class DescribeWriter {
  private readonly lines: string[] = [];
  private readonly pendingLinks: { line: number; text: string; target: ObjectTarget }[] = [];
  /** Line indices where a new alignment section begins (kubectl's `w.Flush()`). */
  private readonly flushes: number[] = [];

  /** One line at `level` (0 to 3…) made of `cells`. */
  line(level: number, ...cells: string[]): this {
    this.lines.push('  '.repeat(level) + cells.map(clean).join('\t'));
    return this;
  }

  /** Ends an alignment section: later lines are aligned on their own (kubectl flushes before Events). */
  flush(): this {
    this.flushes.push(this.lines.length);
    return this;
  }

  /** Makes the last occurrence of `text` on the last written line a link to `target`. */
  link(text: string, target: ObjectTarget): this {
    if (this.lines.length > 0 && text) this.pendingLinks.push({ line: this.lines.length - 1, text: clean(text), target });
    return this;
  }

  /** Adds the lines of another writer (already at their levels), keeping its links. */
  append(other: DescribeWriter): this {
    const offset = this.lines.length;
    this.flushes.push(offset);
    this.lines.push(...other.lines);
    for (const f of other.flushes) this.flushes.push(f + offset);
    for (const l of other.pendingLinks) this.pendingLinks.push({ ...l, line: l.line + offset });
    return this;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  render(): Description {
    const bounds = [...new Set([0, ...this.flushes, this.lines.length])].sort((a, b) => a - b);
    const aligned: string[] = [];
    for (let i = 1; i < bounds.length; i++) aligned.push(...tabAlign(this.lines.slice(bounds[i - 1], bounds[i])));
    const links: DescribeLink[] = [];
    for (const l of this.pendingLinks) {
      const start = aligned[l.line].lastIndexOf(l.text);
      if (start >= 0) links.push({ line: l.line, start, end: start + l.text.length, target: l.target });
    }
    return { text: aligned.map((l) => l.replace(/\s+$/, '')).join('\n') + '\n', links };
  }
}

/** A cell never carries a tab or line break of its own (they would break the alignment). */
function clean(cell: string): string {
  return cell.replace(/[\t\r\n]+/g, ' ');
}
