/**
 * Pods against kubectl's own printer: the table-driven cases of TestPrintPod in kubernetes'
 * pkg/printers/internalversion/printers_test.go (input pod -> NAME READY STATUS RESTARTS AGE),
 * ported as data; a pod recorded from a real API server; and the tree row made of them.
 */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/informer';
import { describeRow, kubectlLines, printCells, printObject } from '../../../src/ui/printers';
import { readPod } from '../../../src/ui/printers/pod';
import { objectTooltip } from '../../../src/ui/tree/node-presentation';
import { DAY, MINUTE, NOW, SECOND, ago, defaultCells, transcriptObject } from './support';

const containers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i}` }));
const running = {};
const lastTerminated = (msAgo: number) => ({ terminated: { finishedAt: ago(msAgo) } });

function pod(name: string, spec: { containers?: number; initContainers?: number }, status: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name, ...metadata },
    spec: { containers: containers(spec.containers ?? 0), ...(spec.initContainers ? { initContainers: containers(spec.initContainers) } : {}) },
    status,
  };
}

/** [pod, kubectl's cells] from TestPrintPod (AGE is `<unknown>`: the cases carry no creationTimestamp). */
const GOLDEN: [KubeObject, string[]][] = [
  [
    pod('test1', { containers: 2 }, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: { running } }, { restartCount: 3 }] }),
    ['test1', '1/2', 'podPhase', '6', '<unknown>'],
  ],
  [
    pod('test2', { containers: 2 }, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: { running } }, { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }] }),
    ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>'],
  ],
  [
    pod('test3', { containers: 2 }, {
      phase: 'podPhase',
      containerStatuses: [
        { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 },
        { state: { terminated: { reason: 'ContainerTerminatedReason' } }, restartCount: 3 },
      ],
    }),
    ['test3', '0/2', 'ContainerWaitingReason', '6', '<unknown>'],
  ],
  [
    pod('test4', { containers: 2 }, { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: { running } }, { ready: true, restartCount: 3 }] }),
    ['test4', '1/2', 'podPhase', '6', '<unknown>'],
  ],
  [
    pod('test5', { containers: 2 }, { reason: 'podReason', phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: { running } }, { ready: true, restartCount: 3 }] }),
    ['test5', '1/2', 'podReason', '6', '<unknown>'],
  ],
  [
    pod('test6', { containers: 2 }, {
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        { ready: true, restartCount: 3, state: { running } },
      ],
    }),
    ['test6', '1/2', 'NotReady', '6', '<unknown>'],
  ],
  [
    pod('test6', { containers: 2 }, {
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        { ready: true, restartCount: 3, state: { running } },
      ],
      conditions: [{ type: 'Ready', status: 'True' }],
    }),
    ['test6', '1/2', 'Running', '6', '<unknown>'],
  ],
  [
    pod('test7', { containers: 1, initContainers: 1 }, {
      phase: 'podPhase',
      initContainerStatuses: [{ ready: false, restartCount: 3, state: { running }, lastState: lastTerminated(10 * SECOND) }],
      containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
    }),
    ['test7', '0/1', 'Init:0/1', '3 (10s ago)', '<unknown>'],
  ],
  [
    pod('test8', { containers: 1, initContainers: 2 }, {
      phase: 'podPhase',
      initContainerStatuses: [
        { ready: false, restartCount: 3, state: { running }, lastState: lastTerminated(10 * SECOND) },
        { ready: false, state: { waiting: {} } },
      ],
      containerStatuses: [{ ready: false, state: { waiting: {} } }],
    }),
    ['test8', '0/1', 'Init:0/2', '3 (10s ago)', '<unknown>'],
  ],
  [
    pod('test9', { containers: 1, initContainers: 2 }, {
      phase: 'podPhase',
      initContainerStatuses: [
        { ready: false, state: { terminated: {} } },
        { ready: false, restartCount: 3, state: { running }, lastState: lastTerminated(10 * SECOND) },
      ],
      containerStatuses: [{ ready: false, state: { waiting: {} } }],
    }),
    ['test9', '0/1', 'Init:1/2', '3 (10s ago)', '<unknown>'],
  ],
  [
    pod('test10', { containers: 1, initContainers: 2 }, {
      phase: 'podPhase',
      initContainerStatuses: [
        { ready: false, restartCount: 2, state: { terminated: {} }, lastState: lastTerminated(2 * MINUTE) },
        { ready: false, restartCount: 3, state: { running }, lastState: lastTerminated(10 * SECOND) },
      ],
      containerStatuses: [{ ready: false, state: { waiting: {} } }],
    }),
    ['test10', '0/1', 'Init:1/2', '5 (10s ago)', '<unknown>'],
  ],
  [
    pod('test11', { containers: 1, initContainers: 1 }, {
      phase: 'Running',
      initContainerStatuses: [{ ready: false, restartCount: 2, state: { terminated: {} }, lastState: lastTerminated(2 * MINUTE) }],
      containerStatuses: [{ ready: false, restartCount: 4, state: { running }, lastState: lastTerminated(20 * SECOND) }],
    }),
    ['test11', '0/1', 'Running', '4 (20s ago)', '<unknown>'],
  ],
  [
    pod('test12', { containers: 1 }, { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 3, state: { running }, lastState: lastTerminated(5 * DAY) }] }),
    ['test12', '1/1', 'Running', '3 (5d ago)', '<unknown>'],
  ],
  [
    pod('test13', { containers: 2 }, {
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 0, state: { running } },
        { ready: true, restartCount: 3, state: { running }, lastState: lastTerminated(10 * DAY) },
      ],
    }),
    ['test13', '2/2', 'Running', '3 (10d ago)', '<unknown>'],
  ],
  [
    pod('test14', { containers: 2 }, {
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 6, state: { running }, lastState: lastTerminated(5 * DAY) },
        { ready: true, restartCount: 3, state: { running }, lastState: lastTerminated(20 * DAY) },
      ],
    }),
    ['test14', '2/2', 'Running', '9 (5d ago)', '<unknown>'],
  ],
  [
    pod('test15', { containers: 2 }, { phase: 'podPhase', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }),
    ['test15', '0/2', 'SchedulingGated', '0', '<unknown>'],
  ],
  [
    pod('test16', { containers: 1 }, { phase: 'Succeeded', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }),
    ['test16', '0/1', 'Completed', '0', '<unknown>'],
  ],
  [
    pod('test17', { containers: 1 }, { phase: 'Failed', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Error', exitCode: 1 } } }] }),
    ['test17', '0/1', 'Error', '0', '<unknown>'],
  ],
  [
    pod(
      'test18',
      { containers: 1 },
      { phase: 'Succeeded', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] },
      { deletionTimestamp: ago(10 * SECOND) },
    ),
    ['test18', '0/1', 'Completed', '0', '<unknown>'],
  ],
  [
    pod('test19', { containers: 1 }, { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 0, state: { running } }] }, { deletionTimestamp: ago(10 * SECOND) }),
    ['test19', '1/1', 'Terminating', '0', '<unknown>'],
  ],
  [
    pod('test20', { containers: 1 }, { phase: 'Running', reason: 'NodeLost', containerStatuses: [{ ready: true, restartCount: 0, state: { running } }] }, { deletionTimestamp: ago(10 * SECOND) }),
    ['test20', '1/1', 'Unknown', '0', '<unknown>'],
  ],
];

describe('printers: Pod (kubectl READY, STATUS, RESTARTS, AGE)', () => {
  it("prints kubectl's cells for every TestPrintPod case", () => {
    for (const [obj, expected] of GOLDEN) assert.deepEqual(defaultCells(printObject(obj, 'Pod', NOW)), expected, String(obj.metadata.name));
  });

  it('a pod recorded from a real API server prints as kubectl printed it (0/1 Pending 0, <none> node)', () => {
    const p1 = transcriptObject('pod-p1-pending');
    const row = printObject(p1, 'Pod', NOW);
    assert.deepEqual(row.columns, ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    assert.deepEqual(row.cells, ['p1', '0/1', 'Pending', '0', '6h3m', '<none>', '<none>', '<none>', '<none>']);
    assert.equal(describeRow(row), 'Pending · 0/1 · 6h3m');
    assert.deepEqual(row.health, { icon: 'clock', tone: 'busy' });
  });

  it('sidecars (restartable init containers) count in READY; a started one lets the pod run', () => {
    const obj: KubeObject = {
      metadata: { name: 'with-sidecar', creationTimestamp: ago(5 * MINUTE) },
      spec: { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
        initContainerStatuses: [{ name: 'proxy', ready: true, started: true, restartCount: 1, state: { running }, lastState: lastTerminated(2 * MINUTE) }],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running } }],
      },
    };
    assert.deepEqual(defaultCells(printObject(obj, 'Pod', NOW)), ['with-sidecar', '2/2', 'Running', '1 (2m ago)', '5m']);
  });

  it('ephemeral containers: the tooltip lists each with its image, target and state (never counted in READY), as kubectl describe does', () => {
    const debugged: KubeObject = {
      metadata: { name: 'signer', namespace: 'payments', creationTimestamp: ago(3 * DAY) },
      spec: {
        containers: [{ name: 'main' }],
        ephemeralContainers: [
          { name: 'debugger-a1b2c', image: 'busybox', targetContainerName: 'main' },
          { name: 'debugger-d3e4f', image: 'busybox:1.36' },
          { name: 'debugger-g5h6i', image: 'nicolaka/netshoot' },
          { name: 'debugger-j7k8l', image: 'busybox' },
        ],
      },
      status: {
        phase: 'Running',
        containerStatuses: [{ name: 'main', ready: true, restartCount: 0, state: { running } }],
        ephemeralContainerStatuses: [
          { name: 'debugger-a1b2c', state: { running: { startedAt: '2026-01-02T10:00:00Z' } } },
          { name: 'debugger-d3e4f', state: { waiting: { reason: 'ContainerCreating' } } },
          { name: 'debugger-g5h6i', state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        ],
      },
    };
    const row = printObject(debugged, 'Pod', NOW);
    assert.equal(describeRow(row), 'Running · 1/1 · 3d');
    assert.deepEqual(row.notes, [
      'ephemeral container debugger-a1b2c (image busybox, target main): Running since 2026-01-02T10:00:00Z',
      'ephemeral container debugger-d3e4f (image busybox:1.36): Waiting (ContainerCreating)',
      'ephemeral container debugger-g5h6i (image nicolaka/netshoot): Terminated (Completed, exit code 0)',
      'ephemeral container debugger-j7k8l (image busybox): not started yet',
    ]);
    const tooltip = objectTooltip(debugged, 'Pod', NOW);
    assert.ok(tooltip.includes('> ephemeral container debugger-a1b2c (image busybox, target main): Running since 2026-01-02T10:00:00Z\n>\n> ephemeral container debugger-d3e4f'), tooltip);
  });

  it('the description: status and READY first, restarts with the last one\'s age, then AGE; broken reasons are red', () => {
    const crash = pod('ledger', { containers: 1 }, { phase: 'Running', containerStatuses: [{ name: 'main', ready: false, restartCount: 6, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } }, lastState: lastTerminated(90 * SECOND) }] }, { creationTimestamp: ago(3 * DAY) });
    const row = printObject(crash, 'Pod', NOW);
    assert.equal(describeRow(row), 'CrashLoopBackOff · 0/1 · 6 restarts (90s ago) · 3d');
    assert.deepEqual(row.health, { icon: 'error', tone: 'error' });
    assert.deepEqual(row.notes, ['main: back-off 5m0s restarting failed container']);
    const oom = pod('oom', { containers: 1 }, { phase: 'Running', containerStatuses: [{ restartCount: 1, state: { terminated: { reason: 'OOMKilled', exitCode: 137 } } }] });
    assert.equal(readPod(oom).reason, 'OOMKilled');
    assert.equal(printObject(oom, 'Pod', NOW).health.tone, 'error');
    const initFailed = pod('init', { containers: 1, initContainers: 1 }, { phase: 'Pending', initContainerStatuses: [{ state: { terminated: { exitCode: 2 } } }] });
    assert.equal(readPod(initFailed).reason, 'Init:ExitCode:2');
    assert.equal(printObject(initFailed, 'Pod', NOW).health.tone, 'error');
    const signal = pod('sig', { containers: 1 }, { phase: 'Running', containerStatuses: [{ state: { terminated: { signal: 9 } } }] });
    assert.equal(readPod(signal).reason, 'Signal:9');
  });

  it('prints the row as kubectl does: headers over cells, aligned with three spaces (the 00 transcript\'s `kubectl get pods -o wide`)', () => {
    const p1 = { ...transcriptObject('pod-p1-pending'), metadata: { ...transcriptObject('pod-p1-pending').metadata, name: 'nginx', creationTimestamp: ago(0) } };
    assert.deepEqual(kubectlLines(printObject(p1, 'Pod', NOW), true), [
      'NAME    READY   STATUS    RESTARTS   AGE   IP       NODE     NOMINATED NODE   READINESS GATES',
      'nginx   0/1     Pending   0          0s    <none>   <none>   <none>           <none>',
    ]);
    assert.deepEqual(kubectlLines(printObject(p1, 'Pod', NOW)), ['NAME    READY   STATUS    RESTARTS   AGE', 'nginx   0/1     Pending   0          0s']);
  });

  it('survives garbage', () => {
    const bare: KubeObject = { metadata: { name: 'p' }, spec: 'x', status: { phase: 'Running', containerStatuses: [null, 3, { state: null }], initContainerStatuses: 'no' } };
    assert.doesNotThrow(() => printObject(bare, 'Pod', NOW));
    assert.equal(printObject(bare, 'Pod', NOW).cells[2], 'Running');
  });

  it("the table's cells alone (printCells) are the printed row's cells, wide ones included, for every case here", () => {
    const withTimes = pod('timed', { containers: 2 }, { phase: 'Running', podIP: '10.0.0.7', containerStatuses: [{ ready: true, restartCount: 2, state: { running }, lastState: lastTerminated(5 * MINUTE) }, { restartCount: 1 }] }, { creationTimestamp: ago(2 * DAY) });
    const gated = { ...withTimes, spec: { ...(withTimes.spec as object), nodeName: 'node-1', readinessGates: [{ conditionType: 'www' }] }, status: { ...(withTimes.status as object), nominatedNodeName: 'node-2', conditions: [{ type: 'www', status: 'True' }] } };
    const bare: KubeObject = { metadata: { name: 'p' }, spec: 'x', status: { phase: 'Running', containerStatuses: [null, 3, { state: null }], initContainerStatuses: 'no' } };
    const cases = [...GOLDEN.map(([obj]) => obj), transcriptObject('pod-p1-pending'), withTimes, gated, bare];
    for (const obj of cases) assert.deepEqual(printCells(obj, 'Pod', NOW), printObject(obj, 'Pod', NOW).cells, String(obj.metadata.name));
    assert.deepEqual(printCells(gated, 'Pod', NOW).slice(1), ['1/2', 'Running', '3 (5m ago)', '2d', '10.0.0.7', 'node-1', 'node-2', '1/1']);
    // Other kinds go through their printer.
    const cm: KubeObject = { metadata: { name: 'settings' }, data: { a: '1', b: '2' } };
    assert.deepEqual(printCells(cm, 'ConfigMap', NOW), printObject(cm, 'ConfigMap', NOW).cells);
  });
});
