import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/informer';
import { contextNamedColumns, managerContextNames } from '../../../src/ui/table/context-named-columns';
import type { ExtraColumnChange, ExtraColumnSource } from '../../../src/ui/table/extra-columns';

/** A source keyed by spec, as metrics is: it records what it was asked with. */
function specSource() {
  const shown: string[] = [];
  const cells: string[] = [];
  const listeners: ((c: ExtraColumnChange) => void)[] = [];
  const columns = [{ id: 'cpu', header: 'CPU', cell: (context: string) => (cells.push(context), { text: `cpu on ${context || 'current'}` }) }];
  const source: ExtraColumnSource = {
    columnsFor: () => columns,
    show: (context) => (shown.push(context), { dispose: () => {} }),
    onDidChange: (l) => (listeners.push(l), { dispose: () => {} }),
  };
  return { source, shown, cells, fire: (c: ExtraColumnChange) => listeners.forEach((l) => l(c)) };
}

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } } as KubeObject;
const manager = {
  entries: () => [{ id: 'e1', context: 'simulated' }, { id: 'e2', context: 'staging' }],
  contextSpecOf: (id: string) => (id === 'e1' ? '' : 'staging'),
  contextKubeconfig: (spec: string) => (spec === '' ? { contextName: 'simulated' } : spec === 'staging' ? { contextName: 'staging' } : undefined),
};

describe('table: columns of a source keyed by context spec, seen by a table that names contexts', () => {
  it('shows and reads cells with the spec the name resolved from ("" for the current context)', () => {
    const s = specSource();
    const named = contextNamedColumns(s.source, managerContextNames(manager));
    named.show('simulated', { group: '', kind: 'Pod' }, ['ns']);
    named.show('staging', { group: '', kind: 'Pod' }, 'all');
    assert.deepEqual(s.shown, ['', 'staging']);
    const [cpu] = named.columnsFor({ group: '', kind: 'Pod' });
    assert.equal(cpu!.cell('simulated', pod).text, 'cpu on current');
    assert.equal(named.columnsFor({ group: '', kind: 'Pod' })[0], cpu, 'the same column object on every call');
  });

  it('a change reaches the table under the context name; a name nobody resolved to gets nothing, never another context\'s values', () => {
    const s = specSource();
    const named = contextNamedColumns(s.source, managerContextNames(manager));
    const seen: string[] = [];
    named.onDidChange((c) => seen.push(c.context));
    s.fire({ context: '', kind: { group: '', kind: 'Pod' } });
    s.fire({ context: 'gone', kind: { group: '', kind: 'Pod' } });
    assert.deepEqual(seen, ['simulated']);
    named.show('elsewhere', { group: '', kind: 'Pod' }, 'all');
    assert.deepEqual(s.shown, []);
    const cell = named.columnsFor({ group: '', kind: 'Pod' })[0]!.cell('elsewhere', pod);
    assert.equal(cell.tone, 'muted');
    assert.deepEqual(s.cells, []);
  });
});
