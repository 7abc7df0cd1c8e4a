import assert from 'node:assert/strict';
import { ExpansionMemory } from '../../src/ui/tree';

describe('the tree remembers what the user expanded (V14)', () => {
  it('V14 a node stays expanded across its parent collapsing and its own return; collapsing forgets only it', () => {
    const m = new ExpansionMemory();
    m.expand('resource:pods');
    m.expand('pods-entry/shop');
    // The parent collapses: VS Code reports only the parent.
    m.collapse('resource:pods');
    assert.equal(m.isExpanded('pods-entry/shop'), true, 'the child comes back expanded when the parent is expanded again');
    assert.equal(m.isExpanded('resource:pods'), false);
    m.collapse('pods-entry/shop');
    assert.equal(m.isExpanded('pods-entry/shop'), false);
  });

  it('is bounded: the longest-unexpanded ids go first', () => {
    const m = new ExpansionMemory();
    for (let i = 0; i < 2500; i++) m.expand(`n${i}`);
    m.expand('n0'); // expanded again: now the newest
    assert.equal(m.size, 2000);
    assert.equal(m.isExpanded('n0'), true);
    assert.equal(m.isExpanded('n1'), false);
    assert.equal(m.isExpanded('n2499'), true);
  });
});
