import assert from 'node:assert/strict';
import { DoubleClick, objectTabPath } from '../../src/vscode/tab-title';

describe('editor tab titles and pinning', () => {
  it('an object tab is named kind∕name, in a path of the context and namespace (Deployment and Service shop/web differ)', () => {
    assert.equal(objectTabPath('kind-dev', 'shop', 'Deployment', 'web', '.yaml'), '/kind-dev/shop/Deployment\u2215web.yaml');
    assert.equal(objectTabPath('kind-dev', 'shop', 'Service', 'web', '.yaml'), '/kind-dev/shop/Service\u2215web.yaml');
    assert.equal(objectTabPath('', '', 'Node', 'n1'), '/current-context/_cluster/Node\u2215n1');
    assert.equal(objectTabPath('a/b', 'ns', 'Pod', 'x?y'), '/a_b/ns/Pod\u2215x_y', 'no separator or query character from a name');
  });

  it('a second open of the same object within the window is a double click (it pins), and starts a new pair', () => {
    const clicks = new DoubleClick(500);
    assert.equal(clicks.isSecond('a', 1000), false);
    assert.equal(clicks.isSecond('a', 1300), true);
    assert.equal(clicks.isSecond('a', 1400), false, 'a third click starts over');
    assert.equal(clicks.isSecond('b', 1500), false, 'another object');
    assert.equal(clicks.isSecond('b', 2100), false, 'too late');
  });
});
