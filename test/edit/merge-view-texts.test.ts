import assert from 'node:assert/strict';
import { dump, load } from 'js-yaml';
import { objectMergeShape } from '../../src/edit/merge-keys/object-merge-shape';
import { conflictingListsOnOneLine } from '../../src/edit/merge-view-texts';
import { threeWayMerge } from '../../src/edit/three-way-merge';

const DEPLOYMENT = objectMergeShape('apps/v1', 'Deployment');
const A = { name: 'ENV_A', value: 'alpha' };
const B = { name: 'ENV_B', value: 'bravo' };
const C = { name: 'ENV_C', value: 'charlie' };
const deployment = (env: object[], image = 'web:1') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'main', image, env }] } } },
});
const render = (o: unknown) => dump(o, { lineWidth: -1 });
/** The line indexes at which two texts differ (both have as many lines in these tests). */
const differing = (a: string, b: string) => {
  const x = a.split('\n');
  const y = b.split('\n');
  assert.equal(x.length, y.length, `as many lines:\n${a}\n---\n${b}`);
  return x.flatMap((l, i) => (l === y[i] ? [] : [i]));
};

describe('edit: the texts the merge editor is given (W05: a whole-list conflict stays one conflict)', () => {
  it('W05 env reordered on both sides: the list is one line in all three texts, the only line either side changed, so a line merge cannot make an item appear twice', () => {
    const base = deployment([A, B, C]);
    const theirs = deployment([A, C, B], 'web:2');
    const ours = deployment([B, A, C]);
    const { conflicts } = threeWayMerge(base, theirs, ours, DEPLOYMENT);
    assert.equal(conflicts.length, 1);
    const texts = conflictingListsOnOneLine({ base: render(base), ours: render(ours), theirs: render(theirs) }, conflicts);
    // The same objects as before.
    assert.deepEqual(load(texts.base), base);
    assert.deepEqual(load(texts.ours), ours);
    assert.deepEqual(load(texts.theirs), theirs);
    const envLine = texts.ours.split('\n').findIndex((l) => l.includes('env:'));
    assert.match(texts.ours.split('\n')[envLine], /^ +env: \[\{"name":"ENV_B","value":"bravo"\},\{"name":"ENV_A",/);
    assert.deepEqual(differing(texts.base, texts.ours), [envLine], 'the edit changed one line: the list');
    // The server changed the image too: that line and the list, nothing else.
    const imageLine = texts.theirs.split('\n').findIndex((l) => l.includes('image:'));
    assert.deepEqual(differing(texts.base, texts.theirs), [imageLine, envLine].sort((a, b) => a - b));
  });

  it('a conflict in a value (no whole list) leaves the texts as they are', () => {
    const base = deployment([A], 'web:1');
    const texts = { base: render(base), ours: render(deployment([A], 'web:3')), theirs: render(deployment([A], 'web:2')) };
    const { conflicts } = threeWayMerge(base, deployment([A], 'web:2'), deployment([A], 'web:3'), DEPLOYMENT);
    assert.equal(conflicts.length, 1);
    assert.equal(conflictingListsOnOneLine(texts, conflicts), texts);
  });

  it('an edit whose YAML does not parse is left as it is (the merge editor shows it as typed)', () => {
    const base = deployment([A, B, C]);
    const { conflicts } = threeWayMerge(base, deployment([A, C, B]), deployment([B, A, C]), DEPLOYMENT);
    const texts = { base: render(base), ours: 'spec: [unclosed', theirs: render(deployment([A, C, B])) };
    assert.equal(conflictingListsOnOneLine(texts, conflicts), texts);
  });
});
