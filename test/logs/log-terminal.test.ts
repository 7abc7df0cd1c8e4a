import { strict as assert } from 'node:assert';
import { ApiError } from '../../src/base/api-error';
import type { KubeObject } from '../../src/informer';
import { containerEndedForGood, containerRunOf } from '../../src/logs';
import { LOG_RANGES, logChoicesOf, PodLogScreen, previousRunHeading, WHOLE_LOG, type PodLogRequest } from '../../src/ui/logs';
import { until } from '../support/until';
import { assertProtocol, PROTOCOL_CASES, ScreenRecorder, startServer, T0, type ServerRig } from './log-screen-rig';

/** A pod as its kubelet reports it: `restarted` containers ran before (restartCount, lastState). */
function podObject(name: string, opts: { containers?: string[]; init?: string[]; ephemeral?: string[]; restarted?: Record<string, { reason: string; exitCode: number; restarts: number }> } = {}) {
  const containers = opts.containers ?? ['app'];
  const status = (c: string) => {
    const r = opts.restarted?.[c];
    return {
      name: c,
      ready: true,
      restartCount: r?.restarts ?? 0,
      containerID: `containerd://${c}-${r?.restarts ?? 0}`,
      state: { running: { startedAt: '2026-11-23T02:40:00Z' } },
      ...(r ? { lastState: { terminated: { reason: r.reason, exitCode: r.exitCode, startedAt: '2026-11-23T02:30:00Z', finishedAt: '2026-11-23T02:39:58Z' } } } : {}),
    };
  };
  return {
    metadata: { name, namespace: 'default' },
    spec: {
      containers: containers.map((c) => ({ name: c, image: 'busybox' })),
      ...(opts.init ? { initContainers: opts.init.map((c) => ({ name: c, image: 'busybox' })) } : {}),
      ...(opts.ephemeral ? { ephemeralContainers: opts.ephemeral.map((c) => ({ name: c, image: 'busybox', targetContainerName: containers[0] })) } : {}),
    },
    status: {
      phase: 'Running',
      containerStatuses: containers.map(status),
      ...(opts.init ? { initContainerStatuses: opts.init.map((c) => ({ ...status(c), state: { terminated: { reason: 'Completed', exitCode: 0 } } })) } : {}),
      ...(opts.ephemeral ? { ephemeralContainerStatuses: opts.ephemeral.map(status) } : {}),
    },
  };
}

function screenOf(rig: ServerRig, request: PodLogRequest, recorder: ScreenRecorder, range = WHOLE_LOG): PodLogScreen {
  const pod = () => rig.server.get('pods', request.namespace, request.pod);
  return new PodLogScreen(
    request,
    {
      transport: rig.transport,
      clock: rig.clock,
      write: recorder.write,
      screenLines: 1000,
      keptLines: 1000,
      currentRun: (container) => containerRunOf(pod(), container),
      endedForGood: (container) => containerEndedForGood(pod() as unknown as KubeObject, container),
    },
    range,
  );
}

async function closed(rig: ServerRig, screen: PodLogScreen): Promise<void> {
  await screen.dispose();
  await until(() => rig.server.podLogs.openStreams === 0, 'no log stream left on the server');
  assert.equal(screen.activeStreams + screen.activeTimers, 0, 'no stream or timer left');
}

const logQueries = (rig: ServerRig) => rig.server.podLogs.queries;

for (const { http2, label, protocol } of PROTOCOL_CASES) {
  describe(`log terminals on the local API server over ${label}`, function () {
    this.timeout(30_000);
    let rig: ServerRig;
    beforeEach(async () => {
      rig = await startServer(http2);
    });
    afterEach(async () => {
      await rig.close();
    });

    it(`X10 ${label}: after a crash the previous run's log is offered first, and its terminal's heading says the reason and the exit code`, async () => {
      const pod = podObject('crash', { restarted: { app: { reason: 'OOMKilled', exitCode: 137, restarts: 2 } } });
      rig.server.create('pods', pod);
      rig.server.podLogs.append('default', 'crash', 'app', 'allocating 2 GiB', T0);
      rig.server.podLogs.append('default', 'crash', 'app', 'still allocating', T0 + 100);
      rig.server.podLogs.restart('default', 'crash', 'app');
      rig.server.podLogs.append('default', 'crash', 'app', 'started again', T0 + 5000);

      const choices = logChoicesOf(rig.server.get('pods', 'default', 'crash'));
      assert.deepEqual(
        choices.map((c) => [c.label, c.previous]),
        [
          ['app (previous)', true],
          ['app', false],
        ],
      );
      assert.equal(choices[0].description, 'the last terminated run, before restart 2: OOMKilled, exit code 137, finished 2026-11-23T02:39:58Z');

      const recorder = new ScreenRecorder();
      const heading = previousRunHeading(rig.server.get('pods', 'default', 'crash'), 'app');
      const screen = screenOf(rig, { namespace: 'default', pod: 'crash', containers: ['app'], previous: true, heading }, recorder);
      screen.start();
      await until(() => recorder.rows().some((r) => r.includes('end of the previous run')), 'the end of the previous run');
      const rows = recorder.rows();
      assert.equal(rows[0], '── previous run of app (before restart 2): OOMKilled, exit code 137, finished 2026-11-23T02:39:58Z ──');
      assert.match(rows[1], /^── last terminated run of default\/crash, container app ──$/);
      assert.deepEqual(rows.slice(3), ['allocating 2 GiB', 'still allocating', '── end of the previous run ──']);
      assert.match(recorder.bytes, /^\x1b\[1;31m── previous run of app/, 'the heading in bold red, first');
      assert.deepEqual(logQueries(rig), [{ timestamps: 'true', container: 'app', previous: 'true' }]);
      assertProtocol(rig, protocol);
      await closed(rig, screen);
    });

    it(`X11 ${label}: all containers, init and ephemeral ones included, each line prefixed with its container in a colour of its own; a completed init container's log ends once`, async () => {
      rig.server.create('pods', podObject('multi', { containers: ['app', 'sidecar'], init: ['migrate'], ephemeral: ['debugger'] }));
      const all = logChoicesOf(rig.server.get('pods', 'default', 'multi')).find((c) => c.label === 'All containers');
      assert.ok(all);
      assert.deepEqual(all.containers, ['app', 'sidecar', 'migrate', 'debugger']);
      rig.server.podLogs.append('default', 'multi', 'migrate', 'migrated 3 tables', T0);
      rig.server.podLogs.append('default', 'multi', 'app', 'listening on :8080', T0 + 100);

      const recorder = new ScreenRecorder();
      const screen = screenOf(rig, { namespace: 'default', pod: 'multi', containers: all.containers, previous: false }, recorder);
      screen.start();
      // The init container completed: its log is read to its end once, never resumed.
      await until(() => recorder.rows().includes('── [pod/multi/migrate] the log ended ──') && rig.server.podLogs.openStreams === 3, 'the init container\'s log ended, a stream per other container');
      rig.server.podLogs.append('default', 'multi', 'sidecar', 'proxy ready', T0 + 200);
      rig.server.podLogs.append('default', 'multi', 'debugger', 'sh-5.2# ps', T0 + 300);
      await until(() => recorder.rows().filter((r) => r.startsWith('[pod/')).length === 4, 'four lines');

      const lines = recorder.rows().filter((r) => r.startsWith('[pod/'));
      assert.deepEqual(new Set(lines), new Set(['[pod/multi/migrate] migrated 3 tables', '[pod/multi/app] listening on :8080', '[pod/multi/sidecar] proxy ready', '[pod/multi/debugger] sh-5.2# ps']));
      const colours = ['app', 'sidecar', 'migrate', 'debugger'].map((c) => new RegExp(`(\\x1b\\[\\d+m)\\[pod/multi/${c}\\] `).exec(recorder.bytes)?.[1]);
      assert.ok(colours.every((c) => c !== undefined), `every prefix coloured: ${JSON.stringify(colours)}`);
      assert.equal(new Set(colours).size, 4, `a colour per container: ${JSON.stringify(colours)}`);
      assert.deepEqual(logQueries(rig).map((q) => q.container).sort(), ['app', 'debugger', 'migrate', 'sidecar']);
      // Not waiting to read it again: three streams, each with its silence check, and no backoff.
      await until(() => screen.activeStreams === 3 && screen.activeTimers === 3, () => `streams ${screen.activeStreams}, timers ${screen.activeTimers}`);
      assert.equal(logQueries(rig).filter((q) => q.container === 'migrate').length, 1, 'the ended log is read once');
      assert.ok(logQueries(rig).every((q) => q.follow === 'true' && q.timestamps === 'true'));
      assertProtocol(rig, protocol);
      await closed(rig, screen);
    });

    it(`X12 ${label}: timestamps on and off in the user's time format; the tail and since choices reach the server as its query and show as chosen`, async () => {
      rig.server.create('pods', podObject('clock'));
      rig.server.podLogs.now = () => T0 + 10 * 60_000;
      rig.server.podLogs.append('default', 'clock', 'app', 'old line', T0);
      rig.server.podLogs.append('default', 'clock', 'app', 'recent one', T0 + 8 * 60_000);
      rig.server.podLogs.append('default', 'clock', 'app', 'recent two', T0 + 9 * 60_000 + 250);

      const recorder = new ScreenRecorder();
      const screen = new PodLogScreen(
        { namespace: 'default', pod: 'clock', containers: ['app'], previous: false },
        { transport: rig.transport, clock: rig.clock, write: recorder.write, screenLines: 1000, keptLines: 1000, currentRun: () => undefined, timeFormat: { locale: 'de-DE', timeZone: 'Europe/Berlin', hourCycle: 'h23' } },
      );
      screen.start();
      const body = () => recorder.rows().filter((r) => !r.startsWith('──'));
      await until(() => body().length === 3, 'the whole log');
      assert.deepEqual(body(), ['old line', 'recent one', 'recent two']);
      assert.ok(recorder.rows().some((r) => r.startsWith('── from the whole log; times in Europe/Berlin')), recorder.rows().join('\n'));
      assert.equal(logQueries(rig)[0].tailLines, undefined);
      assert.equal(logQueries(rig)[0].sinceSeconds, undefined);

      assert.equal(screen.toggleTimestamps(), true);
      assert.deepEqual(body(), ['2026-11-23 03:40:00,100 old line', '2026-11-23 03:48:00,100 recent one', '2026-11-23 03:49:00,350 recent two']);
      assert.equal(screen.toggleTimestamps(), false);
      assert.deepEqual(body(), ['old line', 'recent one', 'recent two']);

      const pick = (label: string) => LOG_RANGES.find((r) => r.label === label)!;
      const expectations: Array<[string, Record<string, string>, string[], string]> = [
        ['Since 5 minutes ago', { sinceSeconds: '300' }, ['recent one', 'recent two'], 'since 5 min ago'],
        ['Last 100 lines', { tailLines: '100' }, ['old line', 'recent one', 'recent two'], 'the last 100 lines'],
        ['Since 1 hour ago', { sinceSeconds: '3600' }, ['old line', 'recent one', 'recent two'], 'since 1 h ago'],
      ];
      for (const [label, query, lines, said] of expectations) {
        const before = logQueries(rig).length;
        await screen.setRange(pick(label));
        await until(() => body().length === lines.length && logQueries(rig).length === before + 1, `the log read again for ${label}`);
        assert.deepEqual(body(), lines, label);
        assert.deepEqual(logQueries(rig)[before], { timestamps: 'true', container: 'app', follow: 'true', ...query }, label);
        assert.ok(recorder.rows().some((r) => r.startsWith(`── from ${said}; `)), `${label}: ${recorder.rows().join('\n')}`);
        await until(() => rig.server.podLogs.openStreams === 1, 'one stream: the old one stopped');
      }
      // The tail's own semantics on the server: the last line only.
      const before = logQueries(rig).length;
      await screen.setRange({ label: 'Last line', tailLines: 1 });
      await until(() => logQueries(rig).length === before + 1 && body().length === 1, 'the last line');
      assert.deepEqual(body(), ['recent two']);
      assertProtocol(rig, protocol);
      await closed(rig, screen);
    });

    it(`X12 ${label}: a range the server refuses reads in a real 1.34 server's words (a negative tail, a since below 1 s, since with sinceTime, not a number)`, async () => {
      rig.server.create('pods', podObject('bad'));
      const path = '/api/v1/namespaces/default/pods/bad/log';
      const refusal = async (query: Record<string, string>): Promise<string> => {
        try {
          await rig.transport.stream(path, { container: 'app', ...query }, new AbortController().signal, () => undefined);
          return 'accepted';
        } catch (err) {
          return err instanceof ApiError ? `${err.code} ${err.message}` : String(err);
        }
      };
      assert.equal(await refusal({ tailLines: '-1' }), '422 PodLogOptions "bad" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
      assert.equal(await refusal({ sinceSeconds: '0' }), '422 PodLogOptions "bad" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0');
      assert.equal(await refusal({ sinceSeconds: '10', sinceTime: '2026-01-01T00:00:00Z' }), '422 PodLogOptions "bad" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
      assert.equal(await refusal({ tailLines: 'abc' }), '400 strconv.ParseInt: parsing "abc": invalid syntax');
      assert.equal(await refusal({ tailLines: '10', sinceSeconds: '5' }), 'accepted');
      assertProtocol(rig, protocol);
    });

    it(`X13 ${label}: a filter and a search act on lines as they arrive from the server: only matches shown, matches highlighted; a bad regular expression is a message`, async () => {
      rig.server.create('pods', podObject('live'));
      rig.server.podLogs.append('default', 'live', 'app', 'GET /healthz 200', T0);
      rig.server.podLogs.append('default', 'live', 'app', 'ERROR db timeout after 5s', T0 + 100);
      const recorder = new ScreenRecorder();
      const screen = screenOf(rig, { namespace: 'default', pod: 'live', containers: ['app'], previous: false }, recorder);
      screen.start();
      const body = () => recorder.rows().filter((r) => !r.startsWith('──') && !r.startsWith(' match'));
      await until(() => body().length === 2, 'two lines');

      assert.match(screen.filter('/error|warn/i') ?? '', /^$/);
      assert.deepEqual(body(), ['ERROR db timeout after 5s']);
      assert.match(screen.filter('/err(/') ?? '', /^\/err\(\/ is not a valid regular expression: Unterminated group\./);
      assert.equal(screen.view.filter?.source, '/error|warn/i', 'a bad pattern leaves the filter as it was');
      rig.server.podLogs.append('default', 'live', 'app', 'GET /cart 200', T0 + 200);
      rig.server.podLogs.append('default', 'live', 'app', 'WARN slow query: timeout near', T0 + 300);
      await until(() => body().length === 2, 'the matching line that arrived');
      assert.deepEqual(body(), ['ERROR db timeout after 5s', 'WARN slow query: timeout near']);

      assert.equal(screen.find('timeout'), undefined);
      assert.deepEqual(screen.searchStatus(), { matches: 2, current: 2 });
      screen.live();
      rig.server.podLogs.append('default', 'live', 'app', 'ERROR timeout again', T0 + 400);
      await until(() => body().length === 3, 'a new matching line');
      assert.ok(recorder.sinceRedraw().endsWith('ERROR \x1b[7mtimeout\x1b[27m again\r\n'), JSON.stringify(recorder.sinceRedraw().slice(-80)));
      assert.deepEqual(screen.searchStatus(), { matches: 3, current: undefined });
      screen.filter('');
      assert.deepEqual(body(), ['GET /healthz 200', 'ERROR db timeout after 5s', 'GET /cart 200', 'WARN slow query: timeout near', 'ERROR timeout again']);
      assertProtocol(rig, protocol);
      await closed(rig, screen);
    });

    it(`X14 ${label}: Save Log As saves what was received, the outage and reconnection lines that mark the gap included, in order`, async () => {
      rig.server.create('pods', podObject('gap'));
      rig.server.podLogs.append('default', 'gap', 'app', 'before the outage', T0);
      const recorder = new ScreenRecorder();
      const screen = screenOf(rig, { namespace: 'default', pod: 'gap', containers: ['app'], previous: false }, recorder);
      screen.start();
      await until(() => recorder.rows().includes('before the outage') && rig.server.podLogs.openStreams === 1, 'the first line');

      await rig.server.goDown();
      await until(() => screen.activeStreams === 0 && rig.clock.pendingTimers >= 1, 'the follower waiting to try again');
      // Two attempts fail while the server is down (one outage line, rewritten in place).
      for (let attempt = 0; attempt < 2; attempt++) {
        const before = recorder.bytes.length;
        rig.clock.advance(60_000);
        await until(() => recorder.bytes.slice(before).includes('cannot read the log'), `failed attempt ${attempt + 1}`);
      }
      await rig.server.comeUp();
      rig.server.podLogs.append('default', 'gap', 'app', 'after the outage', T0 + 200_000);
      rig.clock.advance(60_000);
      await until(() => recorder.rows().includes('after the outage'), 'the line after the outage');
      screen.toggleTimestamps();

      const saved = screen.savedText().split('\n');
      const from = saved.indexOf('2026-11-23T02:40:00.1Z before the outage');
      assert.ok(from > 0, saved.join('\n'));
      assert.equal(saved.length - from, 5, saved.join('\n'));
      assert.match(saved[from + 1], /^── cannot read the log: .+ · \d+ failed attempts? over \d+ s ──$/);
      assert.match(saved[from + 2], /^── reconnected, \d+ s gap ──$/);
      assert.equal(saved[from + 3], '2026-11-23T02:43:20.1Z after the outage');
      assert.equal(saved[from + 4], '');
      assert.ok(saved.slice(0, from).every((l) => l.startsWith('──')), 'the header first');
      assert.doesNotMatch(screen.savedText(), /\x1b/, 'plain text, no colours');
      assertProtocol(rig, protocol);
      await closed(rig, screen);
    });
  });
}
