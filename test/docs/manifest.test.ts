import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { actionToken } from '../../src/ui/actions/row-actions';

/**
 * What package.json shows users stays tidy as features arrive: every setting has its own place in
 * the Settings editor (`order`), and no command borrows the debugger's icons, whose colours and
 * meanings belong to debugging.
 */
interface Manifest {
  contributes: {
    commands: { command: string; icon?: string }[];
    menus: Record<string, { command?: string; when?: string }[]>;
    configuration: { properties: Record<string, { order?: number }> };
  };
}

/**
 * Whether a menu's `when` lets a row whose contextValue is `viewItem` through. Only the
 * `viewItem == x` and `viewItem =~ /re/` terms of a plain `&&` clause are read; every other term
 * is taken as true, so two contextValues are compared on what the row itself decides.
 */
function viewItemAllows(when: string, viewItem: string): boolean {
  return when.split('&&').every((term) => {
    const equal = /^\s*viewItem\s*==\s*(\S+)\s*$/.exec(term);
    if (equal) return equal[1] === viewItem;
    const match = /^\s*viewItem\s*=~\s*\/(.*)\/\s*$/.exec(term);
    if (match) return new RegExp(match[1]).test(viewItem);
    return true;
  });
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

  it('an object row offers the same object commands with its actions appended to its contextValue (" @scale @delete")', () => {
    const items = manifest.contributes.menus['view/item/context'].filter((e) => e.when?.includes('view == kubeWatch.resources'));
    const lost: string[] = [];
    for (const base of ['object', 'object.pod', 'object.workload', 'object.service']) {
      const decorated = `${base} ${actionToken('scale')} ${actionToken('delete')}`;
      for (const item of items) {
        if (viewItemAllows(item.when ?? '', base) && !viewItemAllows(item.when ?? '', decorated)) lost.push(`${item.command} on ${base}`);
      }
    }
    assert.ok(items.some((i) => viewItemAllows(i.when ?? '', 'object.pod')), 'the reader understands the menus');
    assert.deepEqual(lost, []);
  });
});
