import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { objectStatus } from '../../src/ui/object-status';
import { themeColors } from '../../src/ui/tree/tone';

function pod(status: Record<string, unknown>, extra: Partial<KubeObject['metadata']> = {}, containers = 1): KubeObject {
  return {
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', resourceVersion: '1', ...extra },
    spec: { containers: Array.from({ length: containers }, (_, i) => ({ name: `c${i}`, image: 'nginx' })) },
    status,
  };
}

const running = (ready: boolean, restartCount = 0) => ({ ready, restartCount, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } });
const waiting = (reason: string, restartCount = 0) => ({ ready: false, restartCount, state: { waiting: { reason } } });

describe('objectStatus', () => {
  describe('Pod (kubectl STATUS, READY, RESTARTS)', () => {
    it('running and ready: green pass', () => {
      const s = objectStatus(pod({ phase: 'Running', containerStatuses: [running(true)] }));
      assert.deepEqual(s, { text: 'Running', icon: 'pass', color: themeColors.green, tone: 'ok' });
    });

    it('running but not ready: yellow', () => {
      const s = objectStatus(pod({ phase: 'Running', containerStatuses: [running(true), running(false)] }, {}, 2));
      assert.equal(s.text, 'Running');
      assert.equal(s.color, themeColors.yellow);
    });

    it('pending and creating: yellow clock', () => {
      const pending = objectStatus(pod({ phase: 'Pending' }));
      assert.deepEqual([pending.text, pending.icon, pending.color], ['Pending', 'clock', themeColors.yellow]);
      const creating = objectStatus(pod({ phase: 'Pending', containerStatuses: [waiting('ContainerCreating')] }));
      assert.deepEqual([creating.text, creating.color], ['ContainerCreating', themeColors.yellow]);
      assert.equal(objectStatus(pod({ phase: 'Pending', initContainerStatuses: [waiting('PodInitializing')] })).text, 'Init:0/0', 'kubectl counts the spec\'s init containers');
    });

    it('crash-looping, image pull failures and failed pods: red error, restarts counted', () => {
      const crash = objectStatus(pod({ phase: 'Running', containerStatuses: [waiting('CrashLoopBackOff', 5)] }));
      assert.deepEqual([crash.text, crash.icon, crash.color], ['CrashLoopBackOff', 'error', themeColors.red]);
      assert.equal(objectStatus(pod({ phase: 'Pending', containerStatuses: [waiting('ImagePullBackOff')] })).tone, 'error');
      const failed = objectStatus(pod({ phase: 'Failed', containerStatuses: [{ ready: false, state: { terminated: { reason: 'Error', exitCode: 1 } } }] }));
      assert.deepEqual([failed.text, failed.tone], ['Error', 'error']);
      assert.equal(objectStatus(pod({ phase: 'Failed', reason: 'Evicted' })).text, 'Evicted');
      assert.equal(objectStatus(pod({ phase: 'Pending', initContainerStatuses: [waiting('CrashLoopBackOff')] })).tone, 'error');
    });

    it('succeeded: grey', () => {
      const s = objectStatus(pod({ phase: 'Succeeded', containerStatuses: [{ ready: false, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }));
      assert.deepEqual([s.text, s.icon, s.color], ['Completed', 'pass', themeColors.grey]);
    });

    it('terminating wins over the phase', () => {
      const s = objectStatus(pod({ phase: 'Running', containerStatuses: [running(true)] }, { deletionTimestamp: '2026-01-01T00:00:00Z' }));
      assert.equal(s.text, 'Terminating');
      assert.equal(s.tone, 'busy');
    });

    it('takes the kind from the resource type when the object lacks it, and survives garbage', () => {
      const bare: KubeObject = { metadata: { name: 'p', resourceVersion: '1' }, status: { phase: 'Running', containerStatuses: [null, 3, { state: null }] } };
      assert.doesNotThrow(() => objectStatus(bare, 'Pod'));
      assert.equal(objectStatus(bare, 'Pod').text.startsWith('Running'), true);
    });
  });

  describe('Deployment', () => {
    const deployment = (replicas: number, status: Record<string, unknown>, generation = 1): KubeObject => ({
      kind: 'Deployment',
      metadata: { name: 'd', resourceVersion: '1', generation },
      spec: { replicas },
      status: { observedGeneration: generation, ...status },
    });

    it('ready, updated and available against desired', () => {
      const ok = objectStatus(deployment(3, { readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3 }));
      assert.deepEqual([ok.text, ok.icon, ok.color], ['3/3 ready', 'pass', themeColors.green]);
      const rolling = objectStatus(deployment(3, { readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 }));
      assert.deepEqual([rolling.text, rolling.tone], ['Progressing 1/3 ready', 'busy']);
      assert.equal(objectStatus(deployment(3, { readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, observedGeneration: 1 }, 2)).tone, 'busy', 'a newer generation not yet observed');
    });

    it('a stuck rollout is red; scaled to zero is grey', () => {
      const stuck = objectStatus(deployment(2, { availableReplicas: 0, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }));
      assert.deepEqual([stuck.text, stuck.tone], ['Stuck 0/2 ready', 'error']);
      assert.equal(objectStatus(deployment(0, {})).tone, 'idle');
    });
  });

  describe('everything else', () => {
    it('kinds without a health get their own icon and no colour', () => {
      const cm = objectStatus({ kind: 'ConfigMap', metadata: { name: 'c', resourceVersion: '1' }, data: {} });
      assert.deepEqual(cm, { text: '0 keys', icon: 'symbol-file', tone: 'neutral' });
    });

    it('custom resources: a Ready condition, a phase, or nothing', () => {
      const cr = (status: unknown): KubeObject => ({ kind: 'Widget', apiVersion: 'example.com/v1', metadata: { name: 'w', resourceVersion: '1' }, status });
      assert.equal(objectStatus(cr({ conditions: [{ type: 'Ready', status: 'True' }] })).color, themeColors.green);
      const notReady = objectStatus(cr({ conditions: [{ type: 'Ready', status: 'False', reason: 'Reconciling' }] }));
      assert.deepEqual([notReady.text, notReady.tone], ['Reconciling', 'error']);
      assert.deepEqual(objectStatus(cr({ phase: 'Provisioning' })).text, 'Provisioning');
      assert.equal(objectStatus(cr({ phase: 'Failed' })).tone, 'error');
      assert.deepEqual(objectStatus(cr(undefined)), { text: '', icon: 'symbol-object', tone: 'neutral' });
      assert.equal(objectStatus(cr('garbage')).icon, 'symbol-object');
    });
  });
});
