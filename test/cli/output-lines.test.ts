import assert from 'node:assert/strict';
import { lifecycleLine, objectEventLine, snapshotLine } from '../../src/cli/output-lines';

describe('cli: output lines', () => {
  const obj = (namespace: string | undefined, name: string) => ({ metadata: { namespace, name, uid: `uid-${name}`, resourceVersion: '7', labels: { secret: 'x' } }, data: { token: 'nope' } });

  it('carries its type and identities only, with finalStateUnknown when set', () => {
    assert.equal(JSON.stringify(objectEventLine('configmaps', 'add', obj('ns', 'a'))), '{"event":"add","resource":"configmaps","namespace":"ns","name":"a","uid":"uid-a","resourceVersion":"7"}');
    assert.equal(
      JSON.stringify(objectEventLine('namespaces', 'delete', obj(undefined, 'n'), true)),
      '{"event":"delete","resource":"namespaces","name":"n","uid":"uid-n","resourceVersion":"7","finalStateUnknown":true}',
    );
  });

  it('names states by phase and events by type, with ISO times and extra fields', () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    assert.equal(
      JSON.stringify(lifecycleLine('pods', { type: 'state', state: { phase: 'watching', since: at, synced: true }, at }, '12')),
      '{"lifecycle":"watching","resource":"pods","resourceVersion":"12","at":"2026-01-02T03:04:05.000Z","synced":true}',
    );
    assert.equal(
      JSON.stringify(lifecycleLine('deployments.apps', { type: 'backoff', attempt: 2, delayMs: 900, cause: 'connect ECONNREFUSED', retryAt: at + 900, at }, '')),
      '{"lifecycle":"backoff","resource":"deployments.apps","reason":"connect ECONNREFUSED","at":"2026-01-02T03:04:05.000Z","attempt":2,"delayMs":900,"retryAt":"2026-01-02T03:04:05.900Z"}',
    );
    assert.equal(JSON.stringify(lifecycleLine('pods', { type: 'list-done', items: 3, pages: 1, resourceVersion: '20', durationMs: 4, at }, '12')).includes('"resourceVersion":"20"'), true);
  });

  it('sorts the snapshot of a type by namespace, then name', () => {
    const line = snapshotLine('configmaps', [obj('b', 'x'), obj('a', 'z'), obj('a', 'y'), obj(undefined, 'c')]);
    assert.equal(line.resource, 'configmaps');
    assert.deepEqual(
      line.snapshot.map((o) => `${o.namespace ?? ''}/${o.name}`),
      ['/c', 'a/y', 'a/z', 'b/x'],
    );
  });
});
