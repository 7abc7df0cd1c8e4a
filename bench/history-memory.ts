/**
 * The history store's memory at the B3 scale: 100,000 Pods (about 3 KiB of JSON each once
 * managedFields are dropped, as the informer caches them) across 1,000 namespaces, listed, then
 * each updated three times (a readiness flap, a container restart, a label change), every
 * version a freshly parsed object as a watch delivers it.
 *
 *   node --expose-gc --import tsx bench/history-memory.ts [--quick] [--updates N] [--cap MB ...]
 *
 * For each cap it prints the heap the store retains (heap with the store, minus the heap once
 * the store is dropped, the informer-like cache being the same), against the store's own
 * estimate and the cap; and what the same versions would cost kept as whole JSON text.
 */
import { dropManagedFields, type KubeObject } from '../src/informer';
import { type Clock } from '../src/base';
import { HistoryStore } from '../src/history';
import { pods } from './support/datasets';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc --import tsx bench/history-memory.ts');
  process.exit(2);
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const NAMESPACES = quick ? 100 : 1000;
const PER_NAMESPACE = 100;
const updatesArg = args.indexOf('--updates');
const UPDATES = updatesArg >= 0 ? Number(args[updatesArg + 1]) : 3;
const capArgs = args.flatMap((a, i) => (a === '--cap' ? [Number(args[i + 1])] : []));
const caps = capArgs.length > 0 ? capArgs : [64, 4096];
const ENTRY = 'ctx/pods';
const MiB = 1024 * 1024;

function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Virtual time: a millisecond per call; timers never fire (nothing is deleted here). */
function benchClock(): Clock {
  let t = Date.UTC(2026, 4, 4, 10);
  return { now: () => (t += 1), setTimer: () => ({ cancel() {} }), random: Math.random };
}

/** The next version of a Pod, as a new object parsed from JSON (what a watch event yields). */
function updated(prev: KubeObject, round: number, rv: number): { obj: KubeObject; prevJsonBytes: number } {
  const text = JSON.stringify(prev);
  const o = JSON.parse(text) as KubeObject & { status: any };
  o.metadata.resourceVersion = String(rv);
  const at = new Date(Date.UTC(2026, 4, 4, 11, round, rv % 60)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const cs = o.status.containerStatuses[0];
  const ready = o.status.conditions.filter((c: { type: string }) => c.type === 'Ready' || c.type === 'ContainersReady');
  if (round === 0) {
    // Readiness probe fails.
    for (const c of ready) Object.assign(c, { status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]', lastTransitionTime: at });
    cs.ready = false;
  } else if (round === 1) {
    // The container is restarted and comes back ready.
    for (const c of ready) {
      c.status = 'True';
      c.lastTransitionTime = at;
      delete c.reason;
      delete c.message;
    }
    cs.lastState = { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: cs.state.running.startedAt, finishedAt: at, containerID: cs.containerID } };
    cs.state = { running: { startedAt: at } };
    cs.restartCount += 1;
    cs.ready = true;
    cs.containerID = `containerd://${(rv * 2654435761).toString(16).padStart(16, '0')}${cs.containerID.slice(29)}`;
  } else {
    o.metadata.labels = { ...o.metadata.labels, 'rollout.example.com/wave': String(round) };
  }
  return { obj: JSON.parse(JSON.stringify(o)) as KubeObject, prevJsonBytes: text.length };
}

interface Result {
  capMB: number;
  retainedMB: number;
  estimatedMB: number;
  versions: number;
  histories: number;
  droppedByCap: number;
  wholeTextMB: number;
  listUsPerObject: number;
  updateUsPerEvent: number;
}

function run(capMB: number): Result {
  const clock = benchClock();
  let store: HistoryStore | undefined = new HistoryStore({ clock, settings: { maxMegabytes: capMB } });
  const cache: KubeObject[] = [];
  let rv = 1000;
  let jsonBytes = 0;
  let listNs = 0;
  for (let ns = 0; ns < NAMESPACES; ns++) {
    const namespace = `team-${String(ns).padStart(4, '0')}`;
    for (const r of pods(PER_NAMESPACE, 1, rv, ns + 1)) {
      const obj = dropManagedFields(JSON.parse(r.json.toString('utf8')) as KubeObject);
      obj.metadata.namespace = namespace;
      obj.kind = 'Pod';
      obj.apiVersion = 'v1';
      rv++;
      jsonBytes += JSON.stringify(obj).length;
      cache.push(obj);
      const t0 = process.hrtime.bigint();
      store.added(ENTRY, obj, 'list');
      listNs += Number(process.hrtime.bigint() - t0);
    }
  }
  // Whole JSON text of every version that is not the newest (what a text-per-version store would add).
  let wholeText = 0;
  let updateNs = 0;
  for (let round = 0; round < UPDATES; round++) {
    for (let i = 0; i < cache.length; i++) {
      const prev = cache[i];
      const { obj, prevJsonBytes } = updated(prev, round % 3, ++rv);
      wholeText += 16 + prevJsonBytes;
      cache[i] = obj;
      const t0 = process.hrtime.bigint();
      store.updated(ENTRY, obj, 'event', prev);
      updateNs += Number(process.hrtime.bigint() - t0);
    }
  }
  const withStore = heapUsed();
  const stats = store.stats();
  store.dispose();
  store = undefined;
  const without = heapUsed();
  if (cache.length === 0) throw new Error('unreachable');
  const objects = cache.length;
  const result: Result = {
    capMB,
    retainedMB: (withStore - without) / MiB,
    estimatedMB: stats.estimatedBytes / MiB,
    versions: stats.versions,
    histories: stats.histories,
    droppedByCap: stats.droppedByCap,
    wholeTextMB: wholeText / MiB,
    listUsPerObject: listNs / objects / 1000,
    updateUsPerEvent: updateNs / (objects * UPDATES) / 1000,
  };
  console.log(
    `objects ${objects} in ${NAMESPACES} namespaces, mean JSON ${(jsonBytes / objects / 1024).toFixed(2)} KiB, ${UPDATES} updates each; cache heap ${(without / MiB).toFixed(0)} MiB`,
  );
  return result;
}

const rows: Result[] = [];
for (const cap of caps) {
  const r = run(cap);
  rows.push(r);
  console.log(
    `cap ${r.capMB} MiB: retained ${r.retainedMB.toFixed(1)} MiB (estimate ${r.estimatedMB.toFixed(1)} MiB, ratio ${(r.retainedMB / r.estimatedMB).toFixed(2)}); ` +
      `${r.histories} histories, ${r.versions} versions kept, ${r.droppedByCap} dropped by the cap; ` +
      `the older versions as whole JSON text would be ${r.wholeTextMB.toFixed(0)} MiB; ` +
      `${r.listUsPerObject.toFixed(1)} µs per listed object, ${r.updateUsPerEvent.toFixed(1)} µs per update`,
  );
}
console.log(JSON.stringify(rows));
