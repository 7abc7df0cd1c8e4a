/** Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs and CronJobs against kubectl's columns (printers_test.go shapes). */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/informer';
import { describeRow, printObject } from '../../../src/ui/printers';
import { DAY, HOUR, MINUTE, NOW, SECOND, ago, defaultCells } from './support';

function deployment(status: Record<string, unknown>, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name: 'test1', creationTimestamp: ago(10 * MINUTE), generation: 1, ...metadata },
    spec: { replicas: 5, selector: { matchLabels: { foo: 'bar' } }, template: { spec: { containers: [{ name: 'fake-container1', image: 'fake-image1' }, { name: 'fake-container2', image: 'fake-image2' }] } }, ...spec },
    status: { observedGeneration: 1, ...status },
  };
}

describe('printers: workloads', () => {
  it('Deployment: READY UP-TO-DATE AVAILABLE AGE, wide CONTAINERS IMAGES SELECTOR (TestPrintDeployment)', () => {
    const d = deployment({ replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4, readyReplicas: 1 });
    const row = printObject(d, 'Deployment', NOW);
    assert.deepEqual(row.columns, ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    assert.deepEqual(row.cells, ['test1', '1/5', '2', '1', '10m', 'fake-container1,fake-container2', 'fake-image1,fake-image2', 'foo=bar']);
  });

  it('Deployment: settled is green, rolling out is "Progressing", past its progress deadline is "Stuck" and red, not in progress', () => {
    const settled = printObject(deployment({ readyReplicas: 5, updatedReplicas: 5, availableReplicas: 5 }), 'Deployment', NOW);
    assert.equal(describeRow(settled), '5/5 ready · 5 up-to-date · 5 available · 10m');
    assert.deepEqual(settled.health, { icon: 'pass', tone: 'ok' });
    const rolling = printObject(deployment({ readyReplicas: 3, updatedReplicas: 3, availableReplicas: 3, conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }] }), 'Deployment', NOW);
    assert.equal(describeRow(rolling), 'Progressing 3/5 ready · 3 up-to-date · 3 available · 10m');
    assert.equal(rolling.health.tone, 'busy');
    const message = 'ReplicaSet "checkout-5d8f7b9c6" has timed out progressing.';
    const stuck = printObject(
      deployment({ readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1, conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }, { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message }] }, { replicas: 2, progressDeadlineSeconds: 600 }),
      'Deployment',
      NOW,
    );
    assert.equal(describeRow(stuck), 'Stuck 1/2 ready · 2 up-to-date · 1 available · 10m');
    assert.deepEqual(stuck.health, { icon: 'error', tone: 'error' });
    assert.deepEqual(stuck.notes, [`Progressing=False ProgressDeadlineExceeded: ${message}`]);
    const degraded = printObject(deployment({ readyReplicas: 4, updatedReplicas: 5, availableReplicas: 4, conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }] }), 'Deployment', NOW);
    assert.equal(describeRow(degraded), '4/5 ready · 5 up-to-date · 4 available · 10m', 'rolled out, a replica not ready: degraded, not progressing');
    assert.deepEqual(degraded.health, { icon: 'warning', tone: 'warning' });
    assert.equal(describeRow(printObject(deployment({}, { replicas: 0 }), 'Deployment', NOW)), '0/0 ready · 0 up-to-date · 0 available · 10m');
    assert.equal(printObject(deployment({ readyReplicas: 5, updatedReplicas: 5, availableReplicas: 5, observedGeneration: 1 }, {}, { generation: 2 }), 'Deployment', NOW).health.tone, 'busy', 'a spec not yet observed');
    assert.ok(describeRow(printObject(deployment({}, {}, { deletionTimestamp: ago(SECOND) }), 'Deployment', NOW)).startsWith('Terminating 0/5 ready'));
    assert.ok(describeRow(printObject(deployment({ replicaSets: 1, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota' }] }), 'Deployment', NOW)).startsWith('ReplicaFailure 0/5'));
  });

  it('ReplicaSet: DESIRED CURRENT READY AGE', () => {
    const rs: KubeObject = { metadata: { name: 'web-7d9f8b6c4', creationTimestamp: ago(2 * HOUR) }, spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image: 'web:1' }] } } }, status: { replicas: 2, readyReplicas: 1 } };
    const row = printObject(rs, 'ReplicaSet', NOW);
    assert.deepEqual(defaultCells(row), ['web-7d9f8b6c4', '2', '2', '1', '120m']);
    assert.equal(describeRow(row), '1/2 ready · 2 current · 120m');
  });

  it('StatefulSet: READY AGE', () => {
    const sts: KubeObject = { metadata: { name: 'postgres', creationTimestamp: ago(3 * DAY) }, spec: { replicas: 3 }, status: { readyReplicas: 3 } };
    assert.deepEqual(defaultCells(printObject(sts, 'StatefulSet', NOW)), ['postgres', '3/3', '3d']);
    assert.equal(printObject(sts, 'StatefulSet', NOW).health.tone, 'ok');
  });

  it('DaemonSet: DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE (TestPrintDaemonSet)', () => {
    const ds: KubeObject = {
      metadata: { name: 'test1', creationTimestamp: ago(0) },
      spec: { template: { spec: { containers: [{ name: 'fake-container1', image: 'fake-image1' }] } } },
      status: { currentNumberScheduled: 2, desiredNumberScheduled: 3, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 0 },
    };
    assert.deepEqual(defaultCells(printObject(ds, 'DaemonSet', NOW)), ['test1', '3', '2', '1', '2', '0', '<none>', '0s']);
    assert.equal(describeRow(printObject(ds, 'DaemonSet', NOW)), '1/3 ready · 2 up-to-date · 0 available · 0s');
  });

  it('Job: STATUS COMPLETIONS DURATION AGE (TestPrintJob)', () => {
    const job = (spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject => ({ metadata: { name: 'job1', creationTimestamp: ago(0) }, spec, status });
    assert.deepEqual(defaultCells(printObject(job({ completions: 2 }, { succeeded: 1 }), 'Job', NOW)), ['job1', 'Running', '1/2', '', '0s']);
    assert.deepEqual(defaultCells(printObject(job({ parallelism: 2 }, { succeeded: 0 }), 'Job', NOW)), ['job1', 'Running', '0/1 of 2', '', '0s']);
    assert.deepEqual(defaultCells(printObject(job({}, { succeeded: 0, startTime: ago(10 * SECOND) }), 'Job', NOW)), ['job1', 'Running', '0/1', '10s', '0s']);
    const done = job({ completions: 2 }, { succeeded: 2, startTime: ago(3 * MINUTE + 30 * SECOND), completionTime: ago(30 * SECOND), conditions: [{ type: 'Complete', status: 'True' }] });
    assert.deepEqual(defaultCells(printObject(done, 'Job', NOW)), ['job1', 'Complete', '2/2', '3m', '0s']);
    assert.equal(describeRow(printObject(done, 'Job', NOW)), 'Complete 2/2 · took 3m · 0s');
    assert.equal(printObject(job({}, { conditions: [{ type: 'Failed', status: 'True' }] }), 'Job', NOW).cells[1], 'Failed');
    assert.equal(printObject(job({}, { conditions: [{ type: 'Suspended', status: 'True' }] }), 'Job', NOW).cells[1], 'Suspended');
    assert.equal(printObject(job({}, { conditions: [{ type: 'FailureTarget', status: 'True' }] }), 'Job', NOW).cells[1], 'FailureTarget');
  });

  it('CronJob: SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE (TestPrintCronJob)', () => {
    const cj = (spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject => ({ metadata: { name: 'cronjob1', creationTimestamp: ago(0) }, spec: { schedule: '0/5 * * * ?', ...spec }, status });
    assert.deepEqual(defaultCells(printObject(cj({ suspend: false }, { lastScheduleTime: ago(5 * SECOND) }), 'CronJob', NOW)), ['cronjob1', '0/5 * * * ?', '<none>', 'False', '0', '5s', '0s']);
    assert.deepEqual(defaultCells(printObject(cj({ suspend: false, timeZone: 'Europe/Paris' }, {}), 'CronJob', NOW)), ['cronjob1', '0/5 * * * ?', 'Europe/Paris', 'False', '0', '<none>', '0s']);
    const suspended = printObject(cj({ suspend: true }, { active: [{ name: 'j' }], lastScheduleTime: ago(2 * MINUTE) }), 'CronJob', NOW);
    assert.equal(describeRow(suspended), 'Suspended · 0/5 * * * ? · 1 active · last 2m ago · 0s');
    assert.equal(printObject(cj({}, {}), 'CronJob', NOW).cells[3], '<unset>');
  });
});
