/**
 * What the action dialogs and rows show, VS Code-free: the confirmation of a plan (and when the
 * setting skips it), the choices of Delete and Rollout Undo, and the marks a write leaves on its row.
 */
import assert from 'node:assert/strict';
import { planDelete, planScale, revisionsOf, type ActionTarget, type WriteRecord } from '../../src/actions';
import type { KubeObject, ResourceType } from '../../src/informer';
import { confirmationOf, deleteChoices, markRow, markTooltip, revisionChoices, typedNameProblem } from '../../src/ui/actions';

const type = (kind: string, resource: string, group = '', namespaced = true): ResourceType => ({ group, version: 'v1', resource, kind, namespaced });
const target = (t: ResourceType, namespace: string, name: string, rest: Partial<KubeObject> = {}): ActionTarget => ({ context: 'kind-dev', type: t, namespace, name, object: { ...rest, metadata: { name, namespace, uid: `u-${name}`, ...(rest.metadata ?? {}) } } as KubeObject });

const row = { label: 'web', description: '2/2 ready · 3d', icon: { id: 'pass', color: 'testing.iconPassed' }, collapsible: 'none' as const, contextValue: 'object.workload @scale' };
const record = (state: WriteRecord['state'], extra: Partial<WriteRecord> = {}): WriteRecord => ({
  id: 1,
  verb: 'scale',
  summary: 'replicas 2 → 3',
  watched: { context: 'kind-dev', group: 'apps', resource: 'deployments', namespace: 'shop', name: 'web' },
  startedAt: 1_000,
  since: 1_000,
  state,
  ...extra,
});

describe('Action prompts and write marks (view models)', () => {
  it('a confirmation carries the plan\'s words and its kubectl command; the setting skips it only for reversible actions, never for a typed name', () => {
    const web = target(type('Deployment', 'deployments', 'apps'), 'shop', 'web', { spec: { replicas: 2 } });
    const scale = confirmationOf(planScale(web, 3), true);
    assert.equal(scale.message, 'Scale Deployment shop/web from 2 to 3 replicas?');
    assert.match(scale.detail, /\n\nkubectl equivalent:\nkubectl scale deployment\/web --replicas=3 -n shop --context kind-dev$/);
    assert.equal(scale.confirm, 'Scale');
    assert.equal(scale.copy, 'Copy kubectl Command');
    assert.equal(scale.skip, false);
    assert.equal(confirmationOf(planScale(web, 3), false).skip, true, 'reversible, and the setting says not to ask');
    assert.equal(confirmationOf(planDelete(web), false).skip, false, 'a delete always asks');
    const ns = confirmationOf(planDelete(target(type('Namespace', 'namespaces', '', false), '', 'shop')), false);
    assert.equal(ns.typeToConfirm, 'shop');
    assert.equal(ns.skip, false);
    assert.equal(typedNameProblem('shop', 'sho'), 'Type shop to confirm');
    assert.equal(typedNameProblem('shop', 'shop'), undefined);
  });

  it("Delete asks a Pod's grace period, anything else what happens to what it owns, a namespace nothing", () => {
    const pod = target(type('Pod', 'pods'), 'shop', 'web-1', { spec: { terminationGracePeriodSeconds: 45 } });
    assert.deepEqual(deleteChoices(pod).map((c) => [c.label, c.description, c.value]), [
      ['Graceful: 45 s', '--grace-period default', {}],
      ['Immediately: grace period 0', '--grace-period=0', { gracePeriodSeconds: 0 }],
    ]);
    assert.deepEqual(deleteChoices(target(type('Deployment', 'deployments', 'apps'), 'shop', 'web')).map((c) => [c.label, c.description]), [
      ['Background', 'default · --cascade=background'],
      ['Foreground', '--cascade=foreground'],
      ['Orphan', '--cascade=orphan'],
    ]);
    assert.deepEqual(deleteChoices(target(type('Namespace', 'namespaces', '', false), '', 'shop')), []);
  });

  it('Rollout Undo offers every revision but the current one, newest first, the previous one named as kubectl\'s default', () => {
    const deployment: KubeObject = { metadata: { name: 'web', uid: 'u' }, spec: { template: { spec: { containers: [{ name: 'm', image: 'web:3' }] } } } };
    const rs = (rev: number, image: string): KubeObject => ({
      metadata: { name: `web-h${rev}`, annotations: { 'deployment.kubernetes.io/revision': String(rev) }, ownerReferences: [{ uid: 'u', controller: true }], creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { template: { spec: { containers: [{ name: 'm', image }] } } },
    });
    const choices = revisionChoices(revisionsOf(deployment, [rs(1, 'web:1'), rs(2, 'web:2'), rs(3, 'web:3')]), Date.parse('2026-01-03T00:00:00Z'));
    assert.deepEqual(choices.map((c) => [c.label, c.description, c.detail]), [
      ['Revision 2', 'web:2 (previous: kubectl rollout undo without --to-revision)', 'ReplicaSet web-h2 · created 2d ago'],
      ['Revision 1', 'web:1', 'ReplicaSet web-h1 · created 2d ago'],
    ]);
  });

  it('a write marks its row: pending (spinning), done (a check), the view may be behind (a warning, never "failed"), failed (an error); the row keeps its own fields', () => {
    assert.deepEqual(markRow(row, record('pending')), { ...row, icon: { id: 'sync~spin' }, description: 'scale pending · 2/2 ready · 3d' });
    assert.deepEqual(markRow(row, record('confirmed')).icon, { id: 'check', color: 'testing.iconPassed' });
    assert.equal(markRow(row, record('confirmed')).description, 'scale done · 2/2 ready · 3d');
    const behind = markRow(row, record('behind'));
    assert.equal(behind.description, 'scale sent · the view may be behind · 2/2 ready · 3d');
    assert.equal(behind.icon?.id, 'warning');
    assert.doesNotMatch(behind.description ?? '', /fail/);
    assert.equal(markRow(row, record('failed')).description, 'scale failed · 2/2 ready · 3d');
    assert.equal(markRow(row, record('failed')).contextValue, row.contextValue, 'the actions stay');
    assert.equal(markTooltip(record('pending', { resourceVersion: '4812' }), 4_000), '$(sync~spin) **scale** (replicas 2 → 3), 3 s ago: the server wrote it at resourceVersion 4812; waiting for the watch to show it.');
    assert.equal(markTooltip(record('behind', { outcome: 'done at resourceVersion 4812; not shown by the watch within 5 s (its watch is reconnecting): the view may be behind, the write did not fail' }), 7_000), '$(warning) **scale** (replicas 2 → 3), 6 s ago: done at resourceVersion 4812; not shown by the watch within 5 s (its watch is reconnecting): the view may be behind, the write did not fail.');
  });
});
