import assert from 'node:assert/strict';
import { labelSelectorText } from '../../src/cluster';

describe('labelSelectorText (apimachinery LabelSelectorAsSelector(...).String())', () => {
  it('sorts requirements by key and In/NotIn values, matchLabels before expressions on the same key', () => {
    const selector = {
      matchLabels: { tier: 'web', app: 'shop' },
      matchExpressions: [
        { key: 'zone', operator: 'NotIn', values: ['b', 'a'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'app', operator: 'In', values: ['shop', 'cart'] },
        { key: 'gpu', operator: 'Exists' },
      ],
    };
    assert.equal(labelSelectorText(selector), 'app=shop,app in (cart,shop),!canary,gpu,tier=web,zone notin (a,b)');
  });

  it('is empty for an absent or empty selector, and leaves out what it cannot name', () => {
    assert.equal(labelSelectorText(undefined), '');
    assert.equal(labelSelectorText({}), '');
    assert.equal(labelSelectorText({ matchExpressions: [{ key: '', operator: 'Exists' }, { key: 'x', operator: 'constructor' }] }), '');
  });
});
