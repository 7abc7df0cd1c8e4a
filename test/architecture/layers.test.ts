import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The folder listing of src/ is the architecture: the lower layers depend only on those before
 * them (base, informer, connection, cluster, manager, as client-go keeps tools/cache apart from
 * rest and transport), no two folders import each other, however indirectly, and no file grows
 * past what one reading holds.
 */
const SRC = path.resolve(__dirname, '../../src');
const LOWER_LAYERS = ['base', 'informer', 'connection', 'cluster', 'manager'];
const MAX_LINES = 450;

interface ImportEdge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts|cts)$/.test(entry.name)) out.push(p);
  }
  return out;
}

/** The file or folder a relative specifier names, or undefined when it leaves src/ or names a non-module. */
function resolveSpecifier(fromFile: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const candidate of [`${base}.ts`, base, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The top-level folder of src/ a file belongs to ('.' for src/extension.ts). */
function topFolder(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel.length === 1 ? '.' : rel[0];
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](\.[^'"]+)['"]/g;

function importEdges(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(SPECIFIER)) {
      const target = resolveSpecifier(file, m[1]);
      if (target && target.startsWith(SRC + path.sep)) edges.push({ from: file, to: target });
    }
  }
  return edges;
}

/** A cycle in the folder graph, as a list of folders, or undefined. */
function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return undefined;
}

describe('architecture: the layers of src/', () => {
  const edges = importEdges();
  const crossing = edges.filter((e) => topFolder(e.from) !== topFolder(e.to));

  it('finds the imports it checks (the scan is not empty)', () => {
    assert.ok(edges.length > 500, `only ${edges.length} imports found`);
    assert.ok(crossing.some((e) => topFolder(e.from) === 'manager' && topFolder(e.to) === 'informer'));
  });

  it('no folder-level import cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of crossing) {
      const from = topFolder(e.from);
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(topFolder(e.to));
    }
    const cycle = findCycle(graph);
    if (cycle) {
      const witnesses = cycle.slice(0, -1).map((folder, i) => {
        const e = crossing.find((x) => topFolder(x.from) === folder && topFolder(x.to) === cycle[i + 1])!;
        return `  ${path.relative(SRC, e.from)} -> ${path.relative(SRC, e.to)}`;
      });
      assert.fail(`folders import each other: ${cycle.join(' -> ')}\n${witnesses.join('\n')}`);
    }
  });

  it('no file-level import cycle (type-only imports included)', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      if (!graph.has(e.from)) graph.set(e.from, new Set());
      graph.get(e.from)!.add(e.to);
    }
    const cycle = findCycle(graph);
    assert.equal(cycle?.map((f) => path.relative(SRC, f)).join(' -> '), undefined);
  });

  it('the lower layers (base, informer, connection, cluster, manager) import only the layers before them', () => {
    const wrong = crossing
      .filter((e) => {
        const from = LOWER_LAYERS.indexOf(topFolder(e.from));
        const to = LOWER_LAYERS.indexOf(topFolder(e.to));
        return from >= 0 && (to < 0 || to > from);
      })
      .map((e) => `${path.relative(SRC, e.from)} -> ${path.relative(SRC, e.to)}`);
    assert.deepEqual(wrong, []);
  });

  it('src/informer imports nothing outside src/base and itself, and no package but node: ones', () => {
    const wrong = crossing.filter((e) => topFolder(e.from) === 'informer' && topFolder(e.to) !== 'base').map((e) => path.relative(SRC, e.to));
    assert.deepEqual(wrong, []);
    const packages: string[] = [];
    for (const file of sourceFiles(path.join(SRC, 'informer'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/\bfrom\s*['"]([^.'"][^'"]*)['"]/g)) {
        if (!m[1].startsWith('node:')) packages.push(`${path.relative(SRC, file)}: ${m[1]}`);
      }
    }
    assert.deepEqual(packages, []);
  });

  it('nothing below src/vscode and src/extension.ts imports vscode', () => {
    const wrong = sourceFiles(SRC)
      .filter((f) => !['vscode', '.'].includes(topFolder(f)))
      .filter((f) => /\bfrom\s*['"]vscode['"]|require\(['"]vscode['"]\)/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f));
    assert.deepEqual(wrong, []);
  });

  it(`no file in src/ is longer than ${MAX_LINES} lines`, () => {
    const long = sourceFiles(SRC)
      .map((f) => ({ f: path.relative(SRC, f), lines: fs.readFileSync(f, 'utf8').split('\n').length }))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.f}: ${x.lines}`);
    assert.deepEqual(long, []);
  });
});
