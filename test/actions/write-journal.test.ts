/**
 * The write journal through the real stack: a WatchManager on the local API server (real
 * transport, real informers), writes sent through the same transport, and the journal keeping
 * each pending until the watch shows it; one log line per write.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceleratedClock, seededRandom, type Disposable } from '../../src/base';
import { WriteJournal, planDelete, planScale, runPlan, type ActionTarget, type JournalLine, type WriteRecord } from '../../src/actions';
import { WatchManager, type WatchEntry } from '../../src/manager';
import type { KubeObject } from '../../src/informer';
import { FakeApiServer, type KubeObjectJson } from '../support/apiserver';
import { until } from '../support/until';

const SCALE = 50;

describe('Write journal: every write pending until the watch shows it, one log line each', function () {
  this.timeout(60_000);
  let server: FakeApiServer;
  let dir: string;
  let manager: WatchManager;
  let journal: WriteJournal | undefined;
  let lines: JournalLine[];
  let states: string[];
  const subscriptions: Disposable[] = [];

  beforeEach(async () => {
    server = await FakeApiServer.start({ timeScale: 1000 / SCALE });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-journal-'));
    const kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'sim', cluster: 'sim', user: 'alice' });
    server.create('deployments.apps', { metadata: { namespace: 'shop', name: 'web', generation: 1 }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } } });
    server.create('pods', { metadata: { namespace: 'shop', name: 'web-1' }, spec: { containers: [{ name: 'main', image: 'x' }] }, status: { phase: 'Pending' } });
    server.create('configmaps', { metadata: { namespace: 'shop', name: 'settings' }, data: { a: '1' } });
    manager = new WatchManager(
      { contexts: [], resources: ['deployments.apps', 'pods'], namespaces: [], kubeconfigPath: kubeconfig },
      { clock: acceleratedClock(SCALE, seededRandom(3)), informerOptions: { requestTimeoutMs: 600_000 } },
    );
    await manager.start();
    await until(() => manager.entries().length === 2 && manager.entries().every((e) => e.state.synced), 'both watches synced');
    lines = [];
    states = [];
  });

  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.dispose();
    journal?.dispose();
    journal = undefined;
    await manager.stop();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function startJournal(confirmWithinMs: number): WriteJournal {
    journal = new WriteJournal(manager, { confirmWithinMs });
    subscriptions.push(
      journal.onLine((l) => lines.push(l)),
      journal.onDidChange((r) => states.push(`${r.verb}:${r.state}`)),
    );
    return journal;
  }

  function entryOf(resource: string): WatchEntry {
    return manager.entries().find((e) => e.resource === resource)!;
  }

  function targetOf(resource: string, namespace: string, name: string): ActionTarget {
    const entry = entryOf(resource);
    const object = entry.informer!.get(namespace, name) as KubeObject;
    return { context: entry.context, type: entry.type!, namespace, name, object };
  }

  function session(j: WriteJournal) {
    const id = entryOf('deployments.apps').id;
    return { transport: manager.transportOf(id)!, journal: j, access: manager.accessReviewsOf(id), user: manager.userOf(id) };
  }

  it('a scale is pending until the watch delivers its resourceVersion, then confirmed; one info line names context, user, verb, object and result', async () => {
    const j = startJournal(60_000);
    const plan = planScale(targetOf('deployments.apps', 'shop', 'web'), 3);
    const result = await runPlan(plan, session(j), new AbortController().signal);
    assert.equal(result.ok, true);
    const rv = (result.answer as KubeObjectJson).metadata.resourceVersion!;
    const record = j.records().at(-1)!;
    await until(() => record.state === 'confirmed', () => `the scale confirmed (state ${record.state})`);
    assert.equal(entryOf('deployments.apps').informer!.get('shop', 'web')?.metadata.resourceVersion, rv);
    assert.equal(states[0], 'scale:sending');
    assert.ok(['scale:pending', 'scale:confirmed'].includes(states[1]), states.join(', '));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, 'info');
    assert.match(lines[0].text, new RegExp(`^\\[sim\\] alice: scale deployments\\.apps shop/web \\(replicas 2 → 3\\): done at resourceVersion ${rv}; the watch shows it (after \\d+\\.\\d s|within 0\\.1 s)$`));
    assert.equal(j.markOf(plan.writes[0].watched)?.state, 'confirmed', 'the row still shows it, for a moment');
  });

  it("a write the watch does not show in time says the view may be behind, never that it failed; when the watch catches up it is confirmed (a debug line)", async () => {
    const j = startJournal(300);
    // The deployments watch goes down and stays down: reconnects are refused.
    const refusals = server.injectFault({ type: 'refuse' }, { verb: 'watch', resource: 'deployments.apps', times: Infinity });
    const listRefusals = server.injectFault({ type: 'refuse' }, { verb: 'list', resource: 'deployments.apps', times: Infinity });
    server.dropWatches('reset', 'deployments.apps');
    const plan = planScale(targetOf('deployments.apps', 'shop', 'web'), 4);
    const result = await runPlan(plan, session(j), new AbortController().signal);
    assert.equal(result.ok, true, 'the server took the write');
    const record = j.records().at(-1)!;
    await until(() => record.state === 'behind', () => `the write marked behind (state ${record.state})`);
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, 'warn');
    assert.match(lines[0].text, /^\[sim\] alice: scale deployments\.apps shop\/web \(replicas 2 → 4\): done at resourceVersion \d+; not shown by the watch within 0\.3 s \(its watch is [a-z-, ]+\): the view may be behind, the write did not fail$/);
    assert.doesNotMatch(lines[0].text, /failed:|error/i);
    refusals.remove();
    listRefusals.remove();
    await until(() => record.state === 'confirmed', () => `the late confirmation (state ${record.state})`);
    assert.deepEqual(lines.map((l) => l.level), ['warn', 'debug'], 'still one line per write above debug');
    assert.match(lines[1].text, /the watch shows it (after|within) .* \(late\)$/);
  });

  it('a refused write fails with words (which verb on which resource), one error line, and the access cache forgets the question', async () => {
    const j = startJournal(60_000);
    const s = session(j);
    assert.deepEqual(await s.access!.can({ verb: 'delete', group: '', resource: 'pods', namespace: 'shop', name: 'web-1' }), { allowed: true });
    server.access.user = 'alice';
    server.access.readOnly();
    const plan = planDelete(targetOf('pods', 'shop', 'web-1'));
    const result = await runPlan(plan, s, new AbortController().signal);
    assert.equal(result.ok, false);
    assert.equal(result.code, 403);
    assert.equal(result.words, 'Not allowed: user "alice" may not delete pods "web-1" in namespace "shop". The cluster\'s access rules (RBAC) refused it; nothing was written.');
    const record: WriteRecord = j.records().at(-1)!;
    assert.equal(record.state, 'failed');
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, 'error');
    assert.equal(lines[0].text, `[sim] alice: delete pods shop/web-1: ${result.words}`);
    assert.equal(s.access!.peek({ verb: 'delete', group: '', resource: 'pods', namespace: 'shop', name: 'web-1' }), undefined, 'forgotten after the 403');
    assert.ok(server.get('pods', 'shop', 'web-1'));
  });

  it('U04 a failed write\'s mark ends when the user lets go of it (dismissFailed: its edit reverted or closed), not a minute later; other objects\' marks stay', async () => {
    const j = startJournal(60_000);
    server.access.user = 'alice';
    server.access.readOnly();
    const web = planScale(targetOf('deployments.apps', 'shop', 'web'), 5);
    const pod = planDelete(targetOf('pods', 'shop', 'web-1'));
    assert.equal((await runPlan(web, session(j), new AbortController().signal)).ok, false);
    assert.equal((await runPlan(pod, session(j), new AbortController().signal)).ok, false);
    const watched = web.writes[0].watched;
    assert.equal(j.markOf(watched)?.state, 'failed', 'the row shows the failure');
    const changes = states.length;
    j.dismissFailed(watched);
    assert.equal(j.markOf(watched), undefined, 'the mark went with the edit');
    assert.deepEqual(states.slice(changes), ['scale:failed'], 'the row is told to redraw');
    assert.equal(j.markOf(pod.writes[0].watched)?.state, 'failed', 'another object keeps its mark');
    assert.equal(j.records().filter((r) => r.state === 'failed').length, 2, 'the records (and their log lines) stay');
  });

  it('a delete is confirmed when the watch delivers the delete; a write on a type nobody watches says so', async () => {
    const j = startJournal(60_000);
    const del = await runPlan(planDelete(targetOf('pods', 'shop', 'web-1')), session(j), new AbortController().signal);
    assert.equal(del.ok, true);
    const record = j.records().at(-1)!;
    await until(() => record.state === 'confirmed', 'the delete confirmed');
    assert.match(lines[0].text, /: delete pods shop\/web-1: done at resourceVersion \d+; the watch shows it deleted (after|within)/);
    await until(() => !entryOf('pods').informer!.get('shop', 'web-1'), 'the pod gone from the cache');

    const cm = server.get('configmaps', 'shop', 'settings')!;
    const target: ActionTarget = { context: 'sim', type: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true }, namespace: 'shop', name: 'settings', object: cm as KubeObject };
    await runPlan(planDelete(target), session(j), new AbortController().signal);
    assert.equal(j.records().at(-1)!.state, 'unwatched');
    assert.match(lines[1].text, /: delete configmaps shop\/settings: done at resourceVersion \d+; no watch here shows configmaps in shop, so nothing confirms it$/);
  });
});
