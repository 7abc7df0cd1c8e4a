import assert from 'node:assert/strict';
import type { LifecycleEvent, LifecycleEventType } from '../../src/informer';
import { formatLifecycleEvent, LifecycleLogWriter, redactCredentials, type LogLevel } from '../../src/ui/log';
import { StatusBarState } from '../../src/ui/status';
import { InspectHistory, inspectReport } from '../../src/ui/inspect';
import { ManualClock, RecordingSink, UiRig, realSleep, until } from './lifecycle-rig';

const label = 'kind-dev/pods in default';
const at = Date.UTC(2026, 0, 2, 10, 0, 0);

/** One example of every lifecycle event type, with the level and text its line must have. The Record makes a new type a compile error here. */
const examples: Record<LifecycleEventType, { event: LifecycleEvent; level: LogLevel; text: RegExp }> = {
  state: { event: { type: 'state', state: { phase: 'listing', since: at, synced: false } }, level: 'debug', text: /^listing$/ },
  'list-started': { event: { type: 'list-started', relist: true, resourceVersion: '120' }, level: 'info', text: /^relist started \(last resourceVersion 120\)$/ },
  'list-page': { event: { type: 'list-page', page: 2, items: 500 }, level: 'trace', text: /^list page 2: 500 items$/ },
  'list-done': {
    event: { type: 'list-done', items: 1234, pages: 3, resourceVersion: '48213', durationMs: 1234 },
    level: 'info',
    text: /^list finished: 1,234 objects in 3 pages, resourceVersion 48213, 1\.2 s$/,
  },
  'list-restarted': { event: { type: 'list-restarted', reason: 'continue token expired on page 2: too old' }, level: 'warn', text: /^list restarted: continue token expired on page 2: too old$/ },
  'streaming-list-fallback': {
    event: { type: 'streaming-list-fallback', reason: '422 sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled' },
    level: 'warn',
    text: /^streaming list unavailable, using paginated lists for this API group\/version: 422 sendInitialEvents is forbidden/,
  },
  synced: { event: { type: 'synced', resourceVersion: '48213', objects: 1 }, level: 'debug', text: /^synced: 1 object at resourceVersion 48213$/ },
  'watch-opened': { event: { type: 'watch-opened', resourceVersion: '48213', timeoutSeconds: 412, protocol: 'h2' }, level: 'info', text: /^watch opened at resourceVersion 48213, timeoutSeconds 412 over HTTP\/2$/ },
  'watch-closed': {
    event: { type: 'watch-closed', cause: 'failed', resourceVersion: '48300', reason: 'connection reset (ECONNRESET)', events: 14, durationMs: 123_000 },
    level: 'warn',
    text: /^watch closed after 2 min 3 s, 14 events, at resourceVersion 48300: connection reset \(ECONNRESET\)$/,
  },
  bookmark: { event: { type: 'bookmark', resourceVersion: '48400' }, level: 'trace', text: /^bookmark: resourceVersion 48400$/ },
  expired: {
    event: { type: 'expired', resourceVersion: '100', message: 'too old resource version: 100 (105)' },
    level: 'warn',
    text: /^expired: resourceVersion 100 is too old for the server: too old resource version: 100 \(105\)$/,
  },
  relist: { event: { type: 'relist', reason: 'expired' }, level: 'info', text: /^relisting: expired$/ },
  backoff: {
    event: { type: 'backoff', attempt: 3, delayMs: 3200, cause: 'connect ECONNREFUSED 127.0.0.1:6443', retryAt: at + 3200 },
    level: 'warn',
    text: /^backing off: attempt 3, next try in 3\.2 s at 10:00:03 UTC: connect ECONNREFUSED 127\.0\.0\.1:6443$/,
  },
  warning: { event: { type: 'warning', message: 'malformed line in the watch stream: {oops', eventType: undefined }, level: 'warn', text: /^warning: malformed line in the watch stream: \{oops$/ },
  'handler-error': { event: { type: 'handler-error', handler: 'tree', message: 'add of default/a threw: boom' }, level: 'error', text: /^handler "tree" threw: add of default\/a threw: boom$/ },
  restart: { event: { type: 'restart', reason: 'by the user, from the watch list' }, level: 'info', text: /^restart requested: by the user, from the watch list$/ },
  stopped: { event: { type: 'stopped' }, level: 'info', text: /^stopped$/ },
  resumed: { event: { type: 'resumed', awayMs: 93_400 }, level: 'info', text: /^resumed after 93 s: verifying the cluster's connections$/ },
  reachability: { event: { type: 'reachability', reachable: false, detail: 'probing it' }, level: 'warn', text: /^the cluster is unreachable: probing it$/ },
};

describe('log formatting', function () {
  this.timeout(40_000);

  it('formats every lifecycle event type as one prefixed line at its level', () => {
    for (const [type, { event, level, text }] of Object.entries(examples)) {
      const line = formatLifecycleEvent(label, event);
      assert.equal(line.level, level, `level of ${type}`);
      assert.ok(line.message.startsWith(`[${label}] `), `prefix of ${type}: ${line.message}`);
      assert.match(line.message.slice(label.length + 3), text, `text of ${type}`);
      assert.doesNotMatch(line.message, /\n/);
    }
  });

  it('states: refusals are errors with the server message, repeats are demoted, recovery is info', () => {
    const unauthorized = { phase: 'unauthorized' as const, reason: 'Unauthorized', since: at, nextRetryAt: at + 30_000, synced: true };
    const first = formatLifecycleEvent(label, { type: 'state', state: unauthorized });
    assert.equal(first.level, 'error');
    assert.equal(first.message, `[${label}] unauthorized: Unauthorized (next attempt at 10:00:30 UTC)`);
    const again = formatLifecycleEvent(label, { type: 'state', state: { ...unauthorized, since: at + 30_000 } }, { troubleSince: at, lastFailure: unauthorized });
    assert.equal(again.level, 'debug');
    assert.match(again.message, /still unauthorized: Unauthorized/);
    assert.equal(formatLifecycleEvent(label, { type: 'state', state: { phase: 'forbidden', reason: 'pods is forbidden: User "x" cannot list', since: at, synced: false } }).level, 'error');
    assert.equal(formatLifecycleEvent(label, { type: 'state', state: { phase: 'not-found', reason: 'the server could not find the requested resource', since: at, synced: false } }).message, `[${label}] not found: the server could not find the requested resource`);
    assert.equal(formatLifecycleEvent(label, { type: 'state', state: { phase: 'unreachable', reason: 'connect ECONNREFUSED', since: at, synced: true } }).level, 'warn');
    assert.equal(formatLifecycleEvent(label, { type: 'state', state: { phase: 'backing-off', since: at, synced: true } }).level, 'debug');

    const watching = { phase: 'watching' as const, since: at + 65_000, synced: true };
    assert.equal(formatLifecycleEvent(label, { type: 'state', state: watching }).level, 'debug');
    const recovered = formatLifecycleEvent(label, { type: 'state', state: watching }, { troubleSince: at, failures: 3 });
    assert.equal(recovered.level, 'info');
    assert.equal(recovered.message, `[${label}] watching again after 1 min 5 s of failures (3 failed attempts)`);
  });

  it('restart reasons read once, however the caller words them', () => {
    assert.equal(formatLifecycleEvent(label, { type: 'restart', reason: 'restart requested by the Restart All Watches command' }).message, `[${label}] restart requested by the Restart All Watches command`);
    assert.equal(formatLifecycleEvent(label, { type: 'restart', reason: 'credentials changed in the kubeconfig' }).message, `[${label}] restart requested: credentials changed in the kubeconfig`);
  });

  it('watch closes: at the timeout is info, by our stop is debug, a failure is warn; messages stay on one line', () => {
    const closed = (cause: 'ended' | 'ended-early' | 'failed' | 'stopped', reason: string) =>
      formatLifecycleEvent(label, { type: 'watch-closed', cause, reason, events: 1, durationMs: 420_000, resourceVersion: '9' });
    assert.deepEqual(closed('ended', 'the server ended the watch'), { level: 'info', message: `[${label}] watch closed by the server after 7 min, 1 event, at resourceVersion 9` });
    assert.equal(closed('ended-early', 'the server ended the watch early').level, 'info');
    assert.equal(closed('stopped', 'stopped').level, 'debug');
    assert.equal(closed('failed', 'no data for 330 s: the connection looks half-open').level, 'warn');
    const multi = formatLifecycleEvent(label, { type: 'warning', message: 'line one\n  line two\r\nthree' });
    assert.equal(multi.message, `[${label}] warning: line one line two three`);
    const long = formatLifecycleEvent(label, { type: 'expired', message: 'x'.repeat(5000) });
    assert.ok(long.message.length < 800 && long.message.endsWith('…'));
  });

  it('redacts anything that looks like a credential', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IiJ9.eyJpc3MiOiJrdWJlcm5ldGVzIn0.c2lnbmF0dXJl';
    const cases = [
      `Authorization: Bearer abcdef0123456789`,
      `request with bearer ${jwt} failed`,
      `token=sekret-1234&x=1`,
      `"token": "sekret-1234"`,
      `client-key-data: LS0tLS1CRUdJTiBSU0E=`,
      `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----`,
      `password: hunter22`,
    ];
    for (const c of cases) {
      const out = redactCredentials(c);
      assert.match(out, /\[redacted\]/, c);
      assert.doesNotMatch(out, /abcdef0123456789|sekret-1234|LS0tLS1CRUdJTiBSU0E=|MIIEpAIBAAKCAQEA|hunter22|c2lnbmF0dXJl/, c);
    }
    // Ordinary messages are left alone.
    for (const ok of ['continue token expired on page 2: too old', 'too old resource version: 100 (105)', 'connect ECONNREFUSED 127.0.0.1:6443']) {
      assert.equal(redactCredentials(ok), ok);
    }
  });

  describe('against the local API server', () => {
    let rig: UiRig;
    beforeEach(() => (rig = new UiRig()));
    afterEach(() => rig.close());

    it('an expiry yields expired, relisting and relist lines with the old resourceVersion and the server message', async () => {
      const server = await rig.server({ token: 'token-a' });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
      server.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
      const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'] });
      const sink = new RecordingSink();
      const writer = new LifecycleLogWriter(m, sink);
      await m.start();
      await until(() => m.entries()[0]?.state.phase === 'watching' && server.openWatches() === 1, () => sink.text);
      const prefix = '[ctx/configmaps in default] ';
      assert.ok(sink.matching(/watch added/).length === 1, sink.text);
      const listed = sink.matching(/list finished/);
      assert.equal(listed.length, 1, sink.text);
      assert.match(listed[0], new RegExp(`^info \\[ctx/configmaps in default\\] list finished: 1 object in 1 page, resourceVersion ${server.resourceVersion}, [\\d.]+ m?s$`));
      assert.equal(sink.matching(/watch opened at resourceVersion/).length, 1, sink.text);

      const rv = server.resourceVersion;
      const message = `too old resource version: ${rv} (${Number(rv) + 5})`;
      server.injectFault({ type: 'errorEvent', code: 410, reason: 'Expired', message }, { verb: 'watch' });
      server.dropWatches('end');
      await until(() => sink.matching(/list finished/).length === 2 && m.entries()[0]?.state.phase === 'watching', () => sink.text);

      const expired = sink.matching(/expired:/);
      assert.deepEqual(expired, [`warn ${prefix}expired: resourceVersion ${rv} is too old for the server: ${message}`]);
      const order = sink.lines.map((l) => l.message);
      const iExpired = order.findIndex((l) => l.includes('expired: resourceVersion'));
      const iRelisting = order.findIndex((l) => l === `${prefix}relisting: expired`);
      const iRelist = order.findIndex((l) => l.startsWith(`${prefix}relist started (last resourceVersion ${rv})`));
      assert.ok(iExpired >= 0 && iExpired < iRelisting && iRelisting < iRelist, sink.text);
      assert.ok(sink.lines.every((l) => l.message.startsWith('[ctx/configmaps in default] ')), sink.text);

      // What the issue asks the closing note to show: the log's text for one fault.
      await m.restart(m.entries()[0].id, 'by the "Restart Watch" command');
      await until(() => sink.matching(/restart requested/).length === 1, () => sink.text);
      assert.deepEqual(sink.matching(/restart requested/), [`info ${prefix}restart requested: by the "Restart Watch" command`]);
      writer.dispose();
      const count = sink.lines.length;
      server.create('configmaps', { metadata: { name: 'cm2', namespace: 'default' } });
      await m.restart(m.entries()[0].id, 'after dispose');
      assert.equal(sink.lines.length, count, 'a disposed writer writes nothing');
    });

    it('a token in the kubeconfig never appears in any log line, report or tooltip, even when the server answers 401', async () => {
      const secret = 'kw-secret-token-0123456789abcdef';
      const server = await rig.server({ token: 'the-token-the-server-wants' });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: secret });
      const m = rig.manager({ resources: ['configmaps', 'pods'], namespaces: ['default'], maxBackoffMs: 2_000 });
      const sink = new RecordingSink();
      const writer = new LifecycleLogWriter(m, sink);
      const history = new InspectHistory();
      m.onLifecycle((id, e) => history.record(id, e));
      const status = new StatusBarState();
      m.onDidChangeEntries(() => status.update(m.entries(), Date.now()));
      await m.start();
      await until(() => sink.lines.filter((l) => /unauthorized/.test(l.message)).length >= 4, () => sink.text);

      const errors = sink.matching(/\] unauthorized: /).filter((l) => l.startsWith('error '));
      assert.ok(errors.length >= 2, sink.text);
      assert.ok(errors.every((l) => /Unauthorized/.test(l)), 'the server message is shown');

      // A token the server accepts, then a wrong one again: the restarts and the recovery are logged too.
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'the-token-the-server-wants' });
      await m.reloadKubeconfig('kubeconfig changed on disk');
      await until(() => m.entries().every((e) => e.state.phase === 'watching'), () => sink.text);
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: `${secret}-rotated` });
      await m.reloadKubeconfig('kubeconfig changed on disk');
      await until(() => m.entries().every((e) => e.state.phase === 'unauthorized'), () => sink.text);
      assert.ok(sink.matching(/restart requested: credentials changed/).length >= 2, sink.text);
      assert.ok(sink.matching(/watching again after/).length >= 1 || sink.matching(/watch opened/).length >= 2, sink.text);

      const everything = [
        sink.text,
        inspectReport(m.entries(), Date.now(), (id) => history.get(id)).text,
        inspectReport(m.entries(), Date.now(), (id) => history.get(id)).markdown,
        status.update(m.entries(), Date.now()).tooltip,
      ].join('\n');
      assert.doesNotMatch(everything, new RegExp(secret), 'the kubeconfig token must never be written');
      assert.doesNotMatch(everything, /the-token-the-server-wants/);
      writer.dispose();
    });

    it('V06 a pause (the manager stopping) names every watch in its lines, never a raw id, even for events after the watch is removed', async () => {
      const server = await rig.server({ token: 'token-a' });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
      const m = rig.manager({ resources: ['configmaps', 'secrets'], namespaces: ['default'] });
      const sink = new RecordingSink();
      const writer = new LifecycleLogWriter(m, sink);
      await m.start();
      await until(() => m.entries().every((e) => e.state.phase === 'watching'), () => sink.text);
      await m.stop();
      await until(() => sink.matching(/\] stopped$/).length >= 2, () => sink.text);
      for (const line of sink.lines) assert.doesNotMatch(line.message, /\[\[|\["/, `a raw entry id in the log: ${line.message}`);
      const stopped = sink.matching(/\] stopped$/);
      assert.deepEqual(stopped.map((l) => l.replace(/^\w+ /, '')).sort(), ['[ctx/configmaps in default] stopped', '[ctx/secrets in default] stopped']);
      writer.dispose();
    });

    it('V06 a kubeconfig that cannot be read: the watch is named by its resource, with no placeholder for the unknown context', async () => {
      const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'], kubeconfigPath: `${rig.dir}/missing` });
      const sink = new RecordingSink();
      const writer = new LifecycleLogWriter(m, sink);
      await m.start();
      assert.equal(m.entries()[0].label, 'configmaps in default');
      assert.doesNotMatch(sink.text, /\(current context\)/);
      writer.dispose();
    });

    it('V10 an outage: one line per failed attempt, a repeated failure told once, attempt numbers that agree with the recovery line', async () => {
      const clock = new ManualClock();
      const server = await rig.server({ token: 'token-a' });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
      const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'] }, clock);
      const sink = new RecordingSink();
      const writer = new LifecycleLogWriter(m, sink);
      await m.start();
      await until(() => m.entries()[0]?.state.phase === 'watching', () => sink.text);
      const from = sink.lines.length;
      await server.goDown();
      // Waits for the engine before each step of the clock: on a busy machine the I/O takes longer, never the clock.
      const idle = () => m.entries().every((e) => e.state.phase === 'watching' || (e.state.nextRetryAt !== undefined && e.state.nextRetryAt > clock.now()));
      const attempts = () => sink.lines.slice(from).filter((l) => /failed attempt \d+/.test(l.message)).length;
      // Bounded: six attempts take about 10 s of the clock (backoff from 0.8 s doubling).
      for (let step = 0; attempts() < 6; step++) {
        assert.ok(step < 120, `six failed attempts told within 2 min of the clock:\n${sink.text}`);
        await until(idle, () => `the engine to wait for the clock: ${JSON.stringify(m.entries().map((e) => e.state))}\n${sink.text}`);
        clock.advance(1000);
        await realSleep(5);
      }
      await server.comeUp();
      for (let step = 0; m.entries()[0].state.phase !== 'watching'; step++) {
        assert.ok(step < 120, `watching again within 2 min of the clock:\n${sink.text}`);
        await until(idle, () => `the engine to wait for the clock: ${JSON.stringify(m.entries().map((e) => e.state))}\n${sink.text}`);
        clock.advance(1000);
        await realSleep(5);
      }
      await until(() => sink.lines.some((l) => /watching again/.test(l.message)), () => sink.text);
      const lines = sink.lines.slice(from);
      const shown = lines.filter((l) => l.level !== 'debug' && l.level !== 'trace');
      const text = lines.map((l) => `${l.level} ${l.message}`).join('\n');

      // One line per failed attempt at any level, numbered 1, 2, 3... with the next try.
      const numbers = lines.flatMap((l) => [.../failed attempt (\d+), next try in /.exec(l.message)?.slice(1) ?? []]).map(Number);
      assert.deepEqual(numbers, numbers.map((_, i) => i + 1), text);
      // No separate state line and backoff line for the same attempt.
      assert.equal(lines.filter((l) => /^\[[^\]]+\] (still )?unreachable: .*\(next attempt at/.test(l.message)).length, 0, text);
      // Each distinct failure is told once at the shown levels; its repeats are debug.
      const told = shown.filter((l) => /failed attempt/.test(l.message)).map((l) => l.message.replace(/; failed attempt.*$/, ''));
      assert.equal(new Set(told).size, told.length, `a failure told twice:\n${text}`);
      assert.ok(told.length <= 3, `few lines while the same thing fails:\n${text}`);
      assert.ok(lines.some((l) => l.level === 'debug' && /\(again\); failed attempt/.test(l.message)), `the repeats at debug:\n${text}`);
      // The recovery line counts the same attempts.
      const recovered = /watching again after .* \((\d+) failed attempts?\)/.exec(shown.map((l) => l.message).join('\n'));
      assert.ok(recovered, text);
      assert.equal(Number(recovered[1]), numbers.length, text);
      assert.doesNotMatch(text, /backing off: attempt \d+/, 'the old counter is gone');
      if (process.env.SHOW_V10 === '1') console.log(shown.map((l) => `${l.level} ${l.message}`).join('\n'));
      writer.dispose();
    });

    it('logs a kubeconfig that cannot be read as an error, once, and watches added and removed', async () => {
      const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'], kubeconfigPath: `${rig.dir}/missing` });
      const sink = new RecordingSink();
      const writer = new LifecycleLogWriter(m, sink);
      await m.start();
      const problems = sink.matching(/kubeconfig problem/);
      assert.equal(problems.length, 1, sink.text);
      assert.match(problems[0], /^error \[.*configmaps in default\] kubeconfig problem: .*no such file/);
      await m.update({ contexts: [], resources: [], namespaces: [], kubeconfigPath: `${rig.dir}/missing` });
      assert.equal(sink.matching(/watch removed/).length, 1, sink.text);
      writer.dispose();
    });
  });
});
