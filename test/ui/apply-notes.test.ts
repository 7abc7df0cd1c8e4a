import assert from 'node:assert/strict';
import { keptLines, reAddedLines } from '../../src/ui/edit/apply-notes';

describe('ui: what a server-side apply preview says beside its diff', () => {
  it('W07: fields the edit would re-add, with when the server was seen without them (or that it is not known)', () => {
    const at = Date.UTC(2026, 0, 2, 14, 2, 11);
    assert.deepEqual(reAddedLines([{ path: ['metadata', 'labels', 'tier'], field: ['metadata', 'labels', 'tier'] }, { path: [], field: ['spec', 'template', 'spec', 'containers', 0, 'env', 1] }], at), [
      'metadata.labels.tier: re-added (removed on the server at 14:02:11 UTC)',
      'spec.template.spec.containers[0].env[1]: re-added (removed on the server at 14:02:11 UTC)',
    ]);
    assert.deepEqual(reAddedLines([{ path: [], field: ['data', 'A'] }], 0), ['data.A: re-added (removed on the server since you opened it)']);
  });

  it('W06: a removal server-side apply cannot make names who manages the field and what removes it', () => {
    assert.deepEqual(keptLines([{ path: [], field: ['data', 'IMAGE'], managers: ['ci'] }, { path: [], field: ['data', 'B'], managers: [] }], 'kube-watch'), [
      'data.IMAGE stays: ci manages it, and server-side apply removes only fields kube-watch applied (saving as an update removes it).',
      'data.B stays: no field manager records it, and server-side apply removes only fields kube-watch applied (saving as an update removes it).',
    ]);
  });
});
