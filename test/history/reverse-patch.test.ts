import assert from 'node:assert/strict';
import { seededRandom } from '../../src/base';
import { applyPatch, decodePatch, encodePatch, patchPaths, reversePatch } from '../../src/history';

/** A random JSON value of bounded depth. */
function randomValue(rnd: () => number, depth: number): unknown {
  const r = rnd();
  if (depth <= 0 || r < 0.35) {
    const p = rnd();
    if (p < 0.25) return Math.floor(rnd() * 10);
    if (p < 0.5) return ['a', 'b', 'c', ''][Math.floor(rnd() * 4)];
    if (p < 0.65) return rnd() < 0.5;
    if (p < 0.75) return null;
    return `s${Math.floor(rnd() * 5)}`;
  }
  if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 4) }, () => randomValue(rnd, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(rnd() * 5); i > 0; i--) {
    const key = ['k', 'l', 'm', 'n', '__proto__', 'x.y'][Math.floor(rnd() * 6)];
    Object.defineProperty(out, key, { value: randomValue(rnd, depth - 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A copy of `v` with a few random edits. */
function mutate(rnd: () => number, v: unknown, depth: number): unknown {
  if (rnd() < 0.2) return randomValue(rnd, depth);
  if (Array.isArray(v)) return v.map((x) => (rnd() < 0.3 ? mutate(rnd, x, depth - 1) : x)).concat(rnd() < 0.1 ? [randomValue(rnd, 1)] : []);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (rnd() < 0.1) continue;
      Object.defineProperty(out, k, { value: rnd() < 0.3 ? mutate(rnd, x, depth - 1) : x, enumerable: true, writable: true, configurable: true });
    }
    if (rnd() < 0.2) out.added = randomValue(rnd, 1);
    return out;
  }
  return v;
}

describe('reverse patches', () => {
  it('turn the newer version back into the older one, for 2,000 random pairs', () => {
    const rnd = seededRandom(11);
    for (let i = 0; i < 2000; i++) {
      const older = { metadata: { name: 'x' }, spec: randomValue(rnd, 4) };
      const newer = mutate(rnd, older, 4);
      const text = encodePatch(reversePatch(newer, older));
      const copy = JSON.parse(JSON.stringify(newer));
      const back = applyPatch(copy, decodePatch(text));
      assert.equal(JSON.stringify(back), JSON.stringify(JSON.parse(JSON.stringify(older))), `pair ${i}`);
    }
  });

  it('are empty for equal versions and treat undefined as absent', () => {
    assert.equal(encodePatch(reversePatch({ a: 1, b: [1, { c: 2 }] }, { a: 1, b: [1, { c: 2 }] })), '');
    assert.equal(reversePatch({ metadata: { managedFields: undefined, name: 'x' } }, { metadata: { name: 'x' } }), undefined);
  });

  it('touch the changed leaves only, sharing path prefixes, and set a resized array whole', () => {
    const older = { spec: { replicas: 3, paused: false, template: { labels: { app: 'web' } } }, status: { conditions: [{ type: 'A' }], ready: [1, 2] } };
    const newer = { spec: { replicas: 5, template: { labels: { app: 'web', tier: 'x' } } }, status: { conditions: [{ type: 'A' }, { type: 'B' }], ready: [1, 3] } };
    const patch = reversePatch(newer, older);
    assert.deepEqual(patch, { spec: { replicas: [3], paused: [false, 'template'], template: { labels: { tier: 0 } } }, status: { conditions: [[{ type: 'A' }]], ready: { 1: [2] } } });
    const paths: string[] = [];
    patchPaths(patch, (p) => (paths.push(p.join('.')), true));
    assert.deepEqual(paths, ['spec.replicas', 'spec.paused', 'spec.template.labels.tier', 'status.conditions', 'status.ready.1']);
    assert.equal(JSON.stringify(applyPatch(structuredClone(newer), patch)), JSON.stringify(older), 'spec.paused back in its place');
  });

  it('never sets a prototype through a __proto__ key', () => {
    const older = JSON.parse('{"data":{"__proto__":{"polluted":true}}}');
    const newer = { data: {} };
    const back = applyPatch(structuredClone(newer), reversePatch(newer, older)) as { data: Record<string, unknown> };
    assert.equal(Object.getPrototypeOf(back.data), Object.prototype);
    assert.deepEqual(Object.keys(back.data), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
