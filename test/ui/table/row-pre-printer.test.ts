import assert from 'node:assert/strict';
import { RowPrePrinter } from '../../../src/ui/table/row-pre-printer';
import { ManualClock } from '../../support/manual-clock';

interface Row {
  id: number;
  quick?: boolean;
  slow?: boolean;
}

/** Rows 0..n-1, and a log of what each pass ran on, in order. */
function setup(n: number, slowCostMs = 0) {
  const clock = new ManualClock();
  const rows: Row[] = Array.from({ length: n }, (_, id) => ({ id }));
  const log: string[] = [];
  const printer = new RowPrePrinter<Row>(clock, () => rows, [
    { done: (r) => !!r.quick, run: (r) => (log.push(`quick ${r.id}`), (r.quick = true)), slice: 4 },
    {
      done: (r) => !!r.slow,
      run: (r) => {
        log.push(`slow ${r.id}`);
        r.slow = true;
        // The work itself takes time by the clock (a loaded machine's printing); no timer is due meanwhile.
        clock.advance(slowCostMs);
      },
      slice: 100,
    },
  ]);
  return { clock, rows, log, printer };
}

describe('row pre-printer', () => {
  it('runs the quick pass over every row, then the slow one, a slice per timer', () => {
    const { clock, log, printer } = setup(6);
    printer.start();
    assert.equal(printer.openHandles, 1);
    assert.ok(clock.fireNext());
    assert.deepEqual(log, ['quick 0', 'quick 1', 'quick 2', 'quick 3'], 'the first slice stops at the quick pass slice size');
    while (clock.fireNext());
    assert.deepEqual(log.slice(4), ['quick 4', 'quick 5', 'slow 0', 'slow 1', 'slow 2', 'slow 3', 'slow 4', 'slow 5']);
    assert.equal(printer.openHandles, 0, 'nothing is held once every pass is done');
  });

  it('ends a slice once it has run its time budget, and goes on in the next one', () => {
    const { clock, log, printer } = setup(200, 1);
    printer.start();
    let slices = 0;
    const slowPerSlice: number[] = [];
    while (clock.fireNext()) {
      slices++;
      slowPerSlice.push(log.filter((l) => l.startsWith('slow')).length);
    }
    const sizes = slowPerSlice.map((n, i) => n - (slowPerSlice[i - 1] ?? 0)).filter((n) => n > 0);
    assert.equal(log.filter((l) => l.startsWith('slow')).length, 200, 'every row printed in the end');
    assert.ok(sizes.every((n) => n <= 25), `no slice of the slow pass ran past its budget: ${sizes.join(', ')}`);
    assert.ok(slices > 8, `the work was cut into many slices (${slices})`);
  });

  it('skips rows a pass is done with, and stop() drops the timer', () => {
    const { clock, rows, log, printer } = setup(5);
    for (const r of rows) r.quick = true;
    rows[1].slow = true;
    printer.start();
    printer.stop();
    assert.equal(printer.openHandles, 0);
    assert.equal(clock.fireNext(), false, 'no timer left');
    printer.setRunning(true);
    while (clock.fireNext());
    assert.deepEqual(log, ['slow 0', 'slow 2', 'slow 3', 'slow 4']);
  });
});
