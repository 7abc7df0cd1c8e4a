import assert from 'node:assert/strict';
import { lensLine } from '../../src/ui/manifests/lens-text';
import { documentState } from '../../src/manifests/manifest-state';

describe('manifests: the lens above each document', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const watching = { phase: 'watching' as const, since: now - 60_000, synced: true };
  it('says every state in words, naming the context', () => {
    const cases: [Parameters<typeof lensLine>[0], string, string[]][] = [
      [{ kind: 'in-sync', context: 'prod' }, 'in sync · prod', []],
      [{ kind: 'drifted', context: 'prod', fields: ['spec.replicas', 'spec.template.spec.containers[web].image'], conflicts: [] }, 'drifted · 2 fields (spec.replicas, containers[web].image) · prod', ['showDiff', 'apply']],
      [{ kind: 'missing', context: 'prod' }, 'not on the cluster · prod', ['apply']],
      [{ kind: 'deleted', context: 'prod', at: now - 180_000 }, 'deleted on the cluster 3 min ago · prod', ['apply']],
      [{ kind: 'forbidden', context: 'prod', reason: 'secrets is forbidden' }, 'cannot read: forbidden · prod', []],
      [{ kind: 'unreachable', context: 'prod', cause: 'unreachable', since: now - 10_000, lastInSyncAt: now - 120_000 }, 'cluster unreachable · last seen in sync 2 min ago · prod', ['refresh']],
      [{ kind: 'unknown-kind', context: 'prod', apiVersion: 'example.com/v1', type: 'Widget (example.com/v1)' }, 'unknown kind: the cluster does not serve Widget (example.com/v1) · prod', []],
      [{ kind: 'checking', context: 'prod', why: 'comparing' }, 'checking… · prod', []],
      [{ kind: 'invalid', context: 'prod', message: 'spec.replicas: Invalid value: -1' }, 'refused by the cluster: spec.replicas: Invalid value: -1 · prod', []],
      [{ kind: 'no-cluster', reason: 'no context' }, 'not compared: no context', []],
    ];
    for (const [state, title, commands] of cases) {
      const line = lensLine(state, now);
      assert.equal(line.title, title);
      assert.deepEqual(line.commands, commands);
    }
  });

  it('a stale watch never says in sync, even with a dry run that found no drift', () => {
    const finding = { kind: 'same' as const, liveVersion: '7' };
    assert.equal(documentState({ context: 'prod', watch: watching, liveVersion: '7', finding }).kind, 'in-sync');
    for (const phase of ['unreachable', 'backing-off', 'stopped', 'unauthorized'] as const) {
      const s = documentState({ context: 'prod', watch: { phase, since: now, synced: true }, liveVersion: '7', finding, lastInSyncAt: now - 1000 });
      assert.equal(s.kind, 'unreachable', phase);
    }
    // A dry run made on an older live object is not the answer for the new one.
    assert.equal(documentState({ context: 'prod', watch: watching, liveVersion: '8', finding }).kind, 'checking');
  });

  it('deleted when the watch saw it go, missing when it never was; forbidden from the watch', () => {
    assert.equal(documentState({ context: 'c', watch: watching, deletedAt: now }).kind, 'deleted');
    assert.equal(documentState({ context: 'c', watch: watching }).kind, 'missing');
    assert.equal(documentState({ context: 'c', watch: { phase: 'forbidden', since: now, synced: false, reason: 'no' } }).kind, 'forbidden');
  });
});
