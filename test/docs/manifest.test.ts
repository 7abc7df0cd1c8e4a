import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What package.json shows users stays tidy as features arrive: every setting has its own place in
 * the Settings editor (`order`), and no command borrows the debugger's icons, whose colours and
 * meanings belong to debugging.
 */
interface Manifest {
  contributes: {
    commands: { command: string; icon?: string }[];
    configuration: { properties: Record<string, { order?: number }> };
  };
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as Manifest;

describe('package.json: what the user sees', () => {
  it('every setting has an order of its own', () => {
    const props = Object.entries(manifest.contributes.configuration.properties);
    assert.ok(props.length > 10);
    assert.deepEqual(props.filter(([, v]) => typeof v.order !== 'number').map(([k]) => k), []);
    const orders = props.map(([, v]) => v.order);
    assert.equal(new Set(orders).size, orders.length, 'no two settings share an order');
  });

  it("no command uses the debugger's codicons", () => {
    const debug = manifest.contributes.commands.filter((c) => /\$\(debug-/.test(c.icon ?? '')).map((c) => `${c.command} ${c.icon}`);
    assert.deepEqual(debug, []);
  });
});
