import { getScalarValue, load, parseEvents, type Event, type ScalarEvent } from 'js-yaml';
import { pathKey, type FieldPath, type PathSegment } from './field-path';

/**
 * Where the fields of a YAML document are in its text, so that a problem found in the object
 * (a 422's field, a conflict, a changed kind) lands on the line the user wrote it on. Built from
 * js-yaml's event stream, which carries source offsets; only the first document counts.
 */

/** Zero-based, end exclusive. */
export interface TextRange {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

/** One map key or list item: where its key (or the item's start) is, and its scalar value if it has one. */
interface Located {
  key: TextRange;
  value?: TextRange;
}

export class YamlLocations {
  constructor(private readonly located: ReadonlyMap<string, Located>) {}

  /** The key of `path` (a map entry) or the start of the item (a list index); undefined when not in the text. */
  keyOf(path: FieldPath): TextRange | undefined {
    return this.located.get(pathKey(path))?.key;
  }

  /** The scalar value of `path`, when it is one. */
  valueOf(path: FieldPath): TextRange | undefined {
    return this.located.get(pathKey(path))?.value;
  }

  /**
   * Where to show a problem about `path`: its scalar value, else its key, else the nearest
   * enclosing field that is in the text (a field the server names but the text leaves out),
   * else the first line.
   */
  rangeFor(path: FieldPath): TextRange {
    for (let n = path.length; n > 0; n--) {
      const at = this.located.get(pathKey(path.slice(0, n)));
      if (at) return n === path.length ? (at.value ?? at.key) : at.key;
    }
    return { line: 0, character: 0, endLine: 0, endCharacter: 1 };
  }
}

/** Offsets to line and column. */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  at(offset: number): { line: number; character: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }

  range(start: number, end: number): TextRange {
    const a = this.at(start);
    const b = this.at(Math.max(start, end));
    return { line: a.line, character: a.character, endLine: b.line, endCharacter: b.character };
  }
}

type Frame =
  | { kind: 'doc'; path: PathSegment[] }
  | { kind: 'map'; path: PathSegment[]; key?: string }
  | { kind: 'seq'; path: PathSegment[]; index: number };

/** The locations of every map key, list item and scalar of the text's first document; none when it does not parse. */
export function yamlLocations(text: string): YamlLocations {
  const located = new Map<string, Located>();
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return new YamlLocations(located);
  }
  const lines = new LineIndex(text);
  const stack: Frame[] = [];
  let documents = 0;
  /** The path the next value goes to, recording a list item's start. */
  const nextValuePath = (start: number | undefined): PathSegment[] | undefined => {
    const top = stack[stack.length - 1];
    if (!top) return undefined;
    if (top.kind === 'doc') return top.path;
    if (top.kind === 'map') return top.key === undefined ? undefined : [...top.path, top.key];
    const path = [...top.path, top.index];
    if (start !== undefined) located.set(pathKey(path), { key: lines.range(start, start + 1) });
    return path;
  };
  const advance = () => {
    const top = stack[stack.length - 1];
    if (top?.kind === 'map') top.key = undefined;
    else if (top?.kind === 'seq') top.index++;
  };
  for (const e of events) {
    if (e.type === 1) {
      if (++documents > 1) break;
      stack.push({ kind: 'doc', path: [] });
    } else if (e.type === 2 || e.type === 3) {
      const path = nextValuePath(e.start) ?? [];
      stack.push(e.type === 2 ? { kind: 'seq', path, index: 0 } : { kind: 'map', path });
    } else if (e.type === 4) {
      const s = e as ScalarEvent;
      const top = stack[stack.length - 1];
      if (top?.kind === 'map' && top.key === undefined) {
        top.key = getScalarValue(text, s);
        located.set(pathKey([...top.path, top.key]), { key: lines.range(s.valueStart, s.valueEnd) });
        continue;
      }
      const path = nextValuePath(s.valueStart);
      if (path) {
        const at = located.get(pathKey(path));
        const value = lines.range(s.valueStart, s.valueEnd);
        located.set(pathKey(path), { key: at?.key ?? value, value });
      }
      advance();
    } else if (e.type === 5) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'map' && top.key === undefined) top.key = '<<alias>>';
      else advance();
    } else if (e.type === 6) {
      const done = stack.pop();
      if (done?.kind === 'doc') break;
      advance();
    }
  }
  return new YamlLocations(located);
}

/** A YAML syntax error of `text`: its first line and where; undefined when it parses. */
export function yamlSyntaxProblem(text: string): { message: string; range: TextRange } | undefined {
  try {
    load(text);
    return undefined;
  } catch (err) {
    const e = err as { reason?: string; message?: string; mark?: { line?: number; column?: number } };
    const line = e.mark?.line ?? 0;
    const character = e.mark?.column ?? 0;
    const message = e.reason ?? (e.message ?? 'not valid YAML').split('\n')[0];
    return { message: `YAML: ${message} (line ${line + 1}, column ${character + 1})`, range: { line, character, endLine: line, endCharacter: character + 1 } };
  }
}
