import assert from 'node:assert/strict';
import { SCRATCH_KEPT_BYTES, ScratchBuffer } from '../../../src/connection/wire/scratch-buffer';

describe('ScratchBuffer', () => {
  it('reuses one buffer, grows it by doubling, and keeps none larger than SCRATCH_KEPT_BYTES', () => {
    const s = new ScratchBuffer(1024);
    const first = s.take(100);
    assert.equal(first.length, 1024);
    assert.equal(s.take(1024), first, 'reused while it fits');
    const grown = s.take(3000);
    assert.equal(grown.length, 4096, 'doubled to fit');
    assert.equal(s.take(10), grown, 'kept after growing');
    const huge = s.take(SCRATCH_KEPT_BYTES + 1);
    assert.equal(huge.length, SCRATCH_KEPT_BYTES + 1, 'a buffer of its own');
    assert.equal(s.take(10), grown, 'the large one was not kept');
    assert.equal(s.take(SCRATCH_KEPT_BYTES).length, SCRATCH_KEPT_BYTES, 'up to the bound it is kept');
    assert.equal(s.take(5).length, SCRATCH_KEPT_BYTES);
  });
});
