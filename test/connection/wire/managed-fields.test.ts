import assert from 'node:assert/strict';
import { seededRandom } from '../../../src/base/clock';
import { parseEventWithoutManagedFields, parseListWithoutManagedFields } from '../../../src/connection/wire/managed-fields';

/** What the parsers must return: JSON.parse, then managedFields of the object(s) set to undefined. */
function expectedEvent(text: string): unknown {
  const ev = JSON.parse(text) as { object?: { metadata?: { managedFields?: unknown } } };
  if (ev.object?.metadata && ev.object.metadata.managedFields !== undefined) ev.object.metadata.managedFields = undefined;
  return ev;
}

function expectedList(text: string): unknown {
  const list = JSON.parse(text) as { items?: { metadata?: { managedFields?: unknown } }[] };
  for (const item of list.items ?? []) if (item.metadata && item.metadata.managedFields !== undefined) item.metadata.managedFields = undefined;
  return list;
}

/** deepEqual that also tells undefined-valued properties from missing ones and -0 from 0. */
function same(actual: unknown, expected: unknown): void {
  assert.deepStrictEqual(actual, expected);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
}

const managed = [
  {
    manager: 'kubectl-client-side-apply',
    operation: 'Update',
    apiVersion: 'v1',
    time: '2026-05-04T09:30:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {} } }, 'f:tricky': { 'v:"]},\\"x[{"': {} } },
    },
  },
  { manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-05-04T09:31:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': {} }, subresource: 'status' },
];

const pod = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name, namespace: 'default', uid: `u-${name}`, resourceVersion: '7', labels: { app: 'x"y]' }, managedFields: managed },
  spec: { containers: [{ name: 'app', image: 'nginx', args: ['a]', '{b', '"c"', 'ü€'] }] },
  ...extra,
});

describe('parsing without managedFields', () => {
  it('drops an event object’s managedFields, escapes and brackets inside strings notwithstanding', () => {
    const text = JSON.stringify({ type: 'MODIFIED', object: { kind: 'Pod', apiVersion: 'v1', ...pod('a') } });
    const parsed = parseEventWithoutManagedFields(Buffer.from(text));
    same(parsed, expectedEvent(text));
    assert.equal((parsed as { object: { metadata: { name: string } } }).object.metadata.name, 'a');
  });

  it('parses a line inside a larger buffer', () => {
    const text = JSON.stringify({ type: 'ADDED', object: pod('b') });
    const buf = Buffer.from(`xx${text}\nyy`);
    same(parseEventWithoutManagedFields(buf, 2, 2 + Buffer.byteLength(text)), expectedEvent(text));
  });

  it('handles managedFields first in metadata, empty, or absent, and BOOKMARK and ERROR events', () => {
    const texts = [
      '{"type":"ADDED","object":{"metadata":{"managedFields":[{"manager":"m"}],"name":"a","resourceVersion":"1"}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"1","managedFields":[]}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"1"}}}',
      '{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"9","creationTimestamp":null}}}',
      '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (251)","reason":"Expired","code":410}}',
    ];
    for (const t of texts) same(parseEventWithoutManagedFields(Buffer.from(t)), expectedEvent(t));
  });

  it('never cuts a managedFields key that is not the object’s own', () => {
    // A custom resource whose fields sort before metadata and embed an object template.
    const decoyFirst = { type: 'ADDED', object: { apiVersion: 'x/v1', data: { template: { metadata: { managedFields: [{ manager: 'keep-me' }] } } }, kind: 'X', ...pod('c') } };
    const onlyNested = { type: 'ADDED', object: { metadata: { name: 'd', resourceVersion: '1' }, spec: { template: { metadata: { managedFields: [{ manager: 'keep-me' }] } } } } };
    for (const ev of [decoyFirst, onlyNested]) {
      const text = JSON.stringify(ev);
      const parsed = parseEventWithoutManagedFields(Buffer.from(text));
      same(parsed, expectedEvent(text));
      assert.match(JSON.stringify(parsed), /keep-me/);
    }
    const list = JSON.stringify({ kind: 'XList', apiVersion: 'x/v1', metadata: { resourceVersion: '3' }, items: [pod('e'), { ...pod('f'), spec: { template: { metadata: { managedFields: [{ manager: 'keep-me' }] } } } }] });
    const parsedList = parseListWithoutManagedFields(Buffer.from(list));
    same(parsedList, expectedList(list));
    assert.match(JSON.stringify(parsedList), /keep-me/);
  });

  it('rejects what JSON.parse rejects', () => {
    for (const t of ['{not json', '{"type":"ADDED","object":{"metadata":{"managedFields":[{"a":"b"}', '{"type":"ADDED","object":{"metadata":{"managedFields":[]}}}}', '']) {
      assert.throws(() => parseEventWithoutManagedFields(Buffer.from(t)), SyntaxError, t);
      assert.throws(() => parseListWithoutManagedFields(Buffer.from(t)), SyntaxError, t);
    }
  });

  it('drops every item’s managedFields in a list', () => {
    const text = JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '10', continue: 'abc' }, items: [pod('a'), pod('b'), { metadata: { name: 'c', resourceVersion: '1' } }, pod('d')] });
    same(parseListWithoutManagedFields(Buffer.from(text)), expectedList(text));
  });

  it('agrees with JSON.parse on 2,000 random objects', () => {
    const rnd = seededRandom(42);
    const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '[', ']', '{', '}', ',', ':', 'ü', '€', '😀', '\n', '\t', '"managedFields":[', '/'];
    const str = () => Array.from({ length: Math.floor(rnd() * 12) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.3) return str();
      if (r < 0.4) return Math.floor(rnd() * 1000) - 500;
      if (r < 0.45) return rnd() < 0.5 ? null : true;
      if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rnd() * 4); i > 0; i--) o[rnd() < 0.1 ? 'managedFields' : str()] = value(depth + 1);
      return o;
    };
    for (let i = 0; i < 2000; i++) {
      const metadata: Record<string, unknown> = { name: str() || 'n', resourceVersion: String(i) };
      if (rnd() < 0.8) metadata.managedFields = Array.from({ length: Math.floor(rnd() * 3) }, () => value(1));
      if (rnd() < 0.3) metadata.labels = { [str()]: str() };
      const object: Record<string, unknown> = rnd() < 0.2 ? { aaa: value(1), metadata } : { metadata, spec: value(1) };
      const text = JSON.stringify({ type: 'MODIFIED', object });
      same(parseEventWithoutManagedFields(Buffer.from(text)), expectedEvent(text));
      const listText = JSON.stringify({ kind: 'List', metadata: {}, items: [object, { metadata: { name: 'x', managedFields: [value(1)] } }] });
      same(parseListWithoutManagedFields(Buffer.from(listText)), expectedList(listText));
    }
  });

  it('gives the same objects whatever the order of line sizes (its buffer is reused, and not kept past 1 MiB)', () => {
    const sizes = [10, 6000, 20, 1_500_000, 30, 70_000, 5, 3_000_000, 15];
    for (const [i, n] of sizes.entries()) {
      const object = { metadata: { name: `o${i}`, managedFields: [{ manager: 'm'.repeat(n) }], labels: { pad: 'p'.repeat(n) } } };
      const text = JSON.stringify({ type: 'ADDED', object });
      same(parseEventWithoutManagedFields(Buffer.from(text)), expectedEvent(text));
    }
  });
});
