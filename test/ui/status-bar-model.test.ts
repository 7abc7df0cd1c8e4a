import assert from 'node:assert/strict';
import { emptyStats, type Informer, type InformerState, type InformerStats } from '../../src/informer';
import type { WatchEntry, WatchManager } from '../../src/manager';
import { ESCALATION_MS, MAX_TOOLTIP_ROWS, StatusBarState, type StatusBarModel } from '../../src/ui/status';
import { viewScope } from '../../src/ui/tree';
import { ManualClock, UiRig, realSleep, until } from './lifecycle-rig';

const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
/** Stands in for a running informer: the model only checks that there is one. */
const running = {} as unknown as Informer;

function entry(name: string, state: Partial<InformerState> & Pick<InformerState, 'phase'>, extra: Partial<WatchEntry> = {}, stats: Partial<InformerStats> = {}): WatchEntry {
  return {
    id: `id-${name}`,
    context: 'ctx',
    resource: name,
    namespace: 'default',
    label: `ctx/${name} in default`,
    informer: running,
    state: { since: t0, synced: true, ...state },
    stats: { ...emptyStats(), ...stats },
    ...extra,
  };
}

const watching = (name: string, rv = '100') => entry(name, { phase: 'watching' }, {}, { resourceVersion: rv, resourceVersionSource: 'list' });

describe('status bar model', function () {
  this.timeout(60_000);

  it('$(eye) n/n when every informer is watching; a table of informers with state and resourceVersion', () => {
    const s = new StatusBarState();
    const m = s.update([watching('pods', '48213'), watching('services', '48100')], t0);
    assert.equal(m.text, '$(eye) 2/2');
    assert.equal(m.background, 'none');
    assert.equal(m.ticking, false, 'no timer while everything is healthy');
    assert.match(m.tooltip, /\*\*Kube Watch\*\* · 2 of 2 watching/);
    assert.match(m.tooltip, /\| Watch \| State \| resourceVersion \|/);
    assert.match(m.tooltip, /\| \$\(eye\) ctx\/pods in default \| watching \| 48213 \|/);
    assert.match(m.tooltip, /\[Show Watch Log\]\(command:kubeWatch\.showLog\)/);
    assert.equal(m.ariaLabel, 'Kube Watch: 2 of 2 watches live');
  });

  it('$(sync~spin) while some list, relist or reconnect, without a background for the first 30 s', () => {
    const s = new StatusBarState();
    const m = s.update([watching('pods'), entry('services', { phase: 'listing', synced: false })], t0);
    assert.equal(m.text, '$(sync~spin) 1/2');
    assert.equal(m.background, 'none');
    assert.match(m.tooltip, /\| \$\(sync\) ctx\/services in default \| listing \| — \|/);
  });

  it('warning background once one has been failing (backing off, connecting after a failure) for more than 30 s', () => {
    const s = new StatusBarState();
    const backingOff = (at: number) => entry('services', { phase: 'backing-off', reason: 'connection reset', since: at, nextRetryAt: at + 4000 });
    const entries = (e: WatchEntry) => [watching('pods'), e];
    s.update(entries(backingOff(t0)), t0);
    // The retry: connecting after a failure keeps the run going; the next failure has a new `since`.
    s.update(entries(entry('services', { phase: 'connecting', since: t0 + 4000 })), t0 + 4000);
    s.update(entries(backingOff(t0 + 4100)), t0 + 4100);
    let m = s.update(entries(entry('services', { phase: 'connecting', since: t0 + 20_000 })), t0 + 20_000);
    assert.equal(m.text, '$(sync~spin) 1/2');
    assert.equal(m.background, 'none');
    assert.equal(m.ticking, true, 'a failing watch needs the 1 s refresh');
    m = s.modelAt(entries(entry('services', { phase: 'connecting', since: t0 + 20_000 })), t0 + ESCALATION_MS);
    assert.equal(m.background, 'none', 'exactly 30 s is not more than 30 s');
    m = s.update(entries(backingOff(t0 + 31_000)), t0 + 31_000);
    assert.equal(m.text, '$(sync~spin) 1/2', 'still reconnecting: the icon spins');
    assert.equal(m.background, 'warning');
    assert.match(m.tooltip, /\$\(warning\) ctx\/services in default: failing for 31 s, last backing-off: connection reset/);
    assert.match(m.tooltip, /\| reconnecting in 4 s \(connection reset\) · failing for 31 s \|/, 'the tree\'s wording, the reason and the duration');

    // Watching again ends the run: no background, no timer.
    m = s.update([watching('pods'), watching('services')], t0 + 32_000);
    assert.equal(m.text, '$(eye) 2/2');
    assert.equal(m.background, 'none');
    assert.equal(m.ticking, false);
    m = s.update(entries(backingOff(t0 + 40_000)), t0 + 40_000);
    assert.equal(m.background, 'none', 'a new run starts from zero');
  });

  it('error background when one is unauthorized, forbidden or unreachable for more than 30 s', () => {
    for (const phase of ['unauthorized', 'forbidden', 'unreachable'] as const) {
      const s = new StatusBarState();
      const failing = (at: number) => entry('pods', { phase, reason: 'the reason', since: at, nextRetryAt: at + 30_000 });
      s.update([failing(t0), watching('services')], t0);
      // The slow retry relists between refusals: listing after a failure continues the run.
      s.update([entry('pods', { phase: 'listing', since: t0 + 20_000 }), watching('services')], t0 + 20_000);
      let m = s.update([failing(t0 + 20_100), watching('services')], t0 + 20_100);
      assert.equal(m.background, 'none', phase);
      m = s.modelAt([failing(t0 + 20_100), watching('services')], t0 + 30_001);
      assert.equal(m.background, 'error', phase);
      assert.equal(m.text, '$(error) 1/2', phase);
      assert.equal(m.spinning, false);
      assert.match(m.ariaLabel, /needs attention/);
      assert.match(m.tooltip, new RegExp(`\\$\\(error\\) ctx/pods in default: ${phase} for 30 s: the reason`));
    }
  });

  it('a milder failure between severe ones restarts the severe clock, not the warning one', () => {
    const s = new StatusBarState();
    s.update([entry('pods', { phase: 'unreachable', since: t0 })], t0);
    s.update([entry('pods', { phase: 'backing-off', since: t0 + 10_000 })], t0 + 10_000);
    s.update([entry('pods', { phase: 'unreachable', since: t0 + 20_000 })], t0 + 20_000);
    const m = s.modelAt([entry('pods', { phase: 'unreachable', since: t0 + 20_000 })], t0 + 35_000);
    assert.equal(m.background, 'warning', 'failing for 35 s, unreachable for 15 s');
    assert.equal(s.modelAt([entry('pods', { phase: 'unreachable', since: t0 + 20_000 })], t0 + 50_001).background, 'error');
  });

  it('not found is a warning after 30 s (an unknown resource may be installed later), not an error', () => {
    const s = new StatusBarState();
    const nf = entry('widgets', { phase: 'not-found', reason: 'the server has no resource type "widgets"', since: t0 }, { informer: undefined, errorKind: 'unknown-resource', error: 'the server has no resource type "widgets"' });
    s.update([nf], t0);
    assert.equal(s.modelAt([nf], t0 + 31_000).background, 'warning');
  });

  it('a kubeconfig or context that cannot be used: error at once, with the reason in the tooltip', () => {
    const s = new StatusBarState();
    const broken = (name: string, kind: 'kubeconfig' | 'context') =>
      entry(name, { phase: 'stopped', reason: 'x', synced: false }, { informer: undefined, errorKind: kind, error: kind === 'kubeconfig' ? 'ENOENT: no such file /home/u/.kube/config' : 'context "prod" does not exist' });
    let m = s.update([broken('pods', 'kubeconfig'), broken('services', 'kubeconfig')], t0);
    assert.equal(m.text, '$(error) Kubeconfig');
    assert.equal(m.background, 'error');
    assert.match(m.tooltip, /\| kubeconfig: ENOENT: no such file \/home\/u\/\.kube\/config \|/);
    m = s.update([broken('pods', 'context')], t0);
    assert.equal(m.text, '$(error) Context');
    m = s.update([broken('pods', 'context'), watching('services')], t0);
    assert.equal(m.text, '$(error) 1/2', 'one context broken, another fine');
    assert.equal(m.background, 'error');

    // Running on the last good kubeconfig after the file became unreadable: a warning.
    m = s.update([entry('pods', { phase: 'watching' }, { errorKind: 'kubeconfig', error: 'the kubeconfig cannot be read (still using the configuration read before)' })], t0);
    assert.equal(m.text, '$(eye) 1/1');
    assert.equal(m.background, 'warning');
    // V03: it says what is wrong, never that the watches have been failing.
    assert.doesNotMatch(m.ariaLabel, /failing/);
    assert.match(m.ariaLabel, /kubeconfig cannot be read, still watching with the configuration read before/);
  });

  it('V09 the tooltip says what the view shows: context, namespaces and the selector in effect', () => {
    const config = { contexts: [], namespaces: ['default', 'web'], labelSelector: 'app=web', fieldSelector: '' };
    const s = new StatusBarState((entries) => viewScope(config, entries).lines);
    const m = s.update([watching('pods'), watching('services')], t0);
    const headline = m.tooltip.indexOf('2 of 2 watching');
    const scope = m.tooltip.indexOf('Context: ctx  \nNamespaces: default, web  \nLabel selector: app=web');
    assert.ok(scope > headline, `the scope follows the headline:\n${m.tooltip}`);
    assert.ok(scope < m.tooltip.indexOf('| Watch |'), 'and comes before the table');
    assert.doesNotMatch(new StatusBarState().update([watching('pods')], t0).tooltip, /Context:/, 'no scope lines without scopeOf');
  });

  it('paused, and no watches', () => {
    const s = new StatusBarState();
    assert.equal(s.update([], t0).text, '$(eye-closed) No watches');
    s.setPaused(true);
    const m = s.update([], t0);
    assert.equal(m.text, '$(stop-circle) Paused');
    assert.equal(m.background, 'none');
    assert.equal(m.ticking, false);
    s.setPaused(false);
    assert.equal(s.update([watching('pods')], t0).text, '$(eye) 1/1');
  });

  it('escapes what it shows and caps the table', () => {
    const s = new StatusBarState();
    const odd = entry('pods', { phase: 'forbidden', reason: 'pods is forbidden: *User* "x|y" cannot $(list) pods\nin <ns>' }, { label: 'ctx/pods | evil' });
    const many = Array.from({ length: MAX_TOOLTIP_ROWS + 5 }, (_, i) => watching(`r${String(i).padStart(2, '0')}`));
    const m = s.update([odd, ...many], t0);
    assert.match(m.tooltip, /\| \$\(lock\) ctx\/pods \\\| evil \| forbidden \(pods is forbidden: \\\*User\\\* "x\\\|y" cannot \\\$\(list\) pods in \\<ns\\>\) \| — \|/);
    const rows = m.tooltip.split('\n').filter((l) => l.startsWith('| $('));
    assert.equal(rows.length, MAX_TOOLTIP_ROWS);
    assert.match(rows[0], /evil/, 'worst first');
    assert.match(m.tooltip, /…and 6 more \(6 watching\)/);
  });

  it('V04 not red once the server is back: a watch still waiting for its retry after an outage only spins, yellow if it takes long', () => {
    const s = new StatusBarState();
    const down = (name: string, at: number) => entry(name, { phase: 'unreachable', reason: 'connect ECONNREFUSED', since: at, nextRetryAt: at + 8000 });
    s.update([down('pods', t0), down('services', t0)], t0);
    let m = s.update([down('pods', t0 + 32_000), down('services', t0 + 32_000)], t0 + 32_000);
    assert.equal(m.background, 'error', 'red during an outage of more than 30 s');
    // The server is back at +40 s: pods watches again, services waits for its next try.
    m = s.update([entry('pods', { phase: 'watching', since: t0 + 40_000 }), down('services', t0 + 36_000)], t0 + 40_000);
    assert.equal(m.background, 'none', 'the outage is over: not red');
    assert.equal(m.text, '$(sync~spin) 1/2');
    m = s.modelAt([entry('pods', { phase: 'watching', since: t0 + 40_000 }), down('services', t0 + 36_000)], t0 + 48_000);
    assert.equal(m.background, 'none', 'still within the reachability fan-out');
    m = s.modelAt([entry('pods', { phase: 'watching', since: t0 + 40_000 }), down('services', t0 + 36_000)], t0 + 71_000);
    assert.equal(m.background, 'warning', 'not caught up 30 s after the server came back');
    assert.match(m.tooltip, /still reconnecting 31 s after the server came back/);
    m = s.update([entry('pods', { phase: 'watching', since: t0 + 40_000 }), entry('services', { phase: 'watching', since: t0 + 72_000 })], t0 + 72_000);
    assert.equal(m.text, '$(eye) 2/2');
  });

  it('V04 a 403 does not spin like a reconnect: a lock, and red after 30 s even while the server answers the other watches', () => {
    const s = new StatusBarState();
    const refused = (at: number) => entry('secrets', { phase: 'forbidden', reason: 'secrets is forbidden', since: at, nextRetryAt: at + 60_000 });
    let m = s.update([entry('pods', { phase: 'watching' }), refused(t0)], t0);
    assert.equal(m.text, '$(lock) 1/2');
    assert.equal(m.spinning, false);
    assert.match(m.ariaLabel, /refused by the server/);
    assert.match(m.tooltip, /\| \$\(lock\) ctx\/secrets in default \| forbidden · next try in 60 s/);
    // Its slow retry relists, and is refused again: still no spinning.
    m = s.update([entry('pods', { phase: 'watching', since: t0 + 60_500 }), entry('secrets', { phase: 'listing', since: t0 + 60_000 })], t0 + 60_000);
    assert.equal(m.spinning, false);
    assert.equal(m.background, 'error');
  });

  describe('against the local API server, on a manual clock', () => {
    let rig: UiRig;
    beforeEach(() => (rig = new UiRig()));
    afterEach(() => rig.close());

    /** A status bar state fed by every entries change, as the VS Code adapter feeds it. */
    function observe(m: WatchManager, clock: ManualClock) {
      const s = new StatusBarState();
      const models: StatusBarModel[] = [];
      m.onDidChangeEntries(() => models.push(s.update(m.entries(), clock.now())));
      return { state: s, models, tick: () => s.update(m.entries(), clock.now()) };
    }

    /**
     * Whether every informer waits for the clock: watching, or waiting for a retry still ahead.
     * While one has a request in flight (real I/O), the clock must not move on: on a busy
     * machine that I/O takes longer, and clock time would run ahead of what the engine did.
     */
    function engineIdle(m: WatchManager, clock: ManualClock): boolean {
      return m.entries().every((e) => e.state.phase === 'watching' || (e.state.nextRetryAt !== undefined && e.state.nextRetryAt > clock.now()));
    }

    /**
     * Advances the clock 1 s at a time (the adapter's tick), each time once the engine is idle
     * again, recording each model.
     */
    async function run(m: WatchManager, clock: ManualClock, seconds: number, tick: () => StatusBarModel): Promise<{ at: number; model: StatusBarModel }[]> {
      const seen: { at: number; model: StatusBarModel }[] = [];
      for (let i = 0; i < seconds; i++) {
        await until(() => engineIdle(m, clock), () => `the engine to wait for the clock: ${JSON.stringify(m.entries().map((e) => e.state))}`);
        clock.advance(1000);
        await realSleep(5);
        await until(() => engineIdle(m, clock), () => `the engine to wait for the clock: ${JSON.stringify(m.entries().map((e) => e.state))}`);
        seen.push({ at: clock.now(), model: tick() });
      }
      return seen;
    }

    it('the server going down: spinning at once, then the warning and error backgrounds after 30 s of the clock; back to $(eye) when it returns', async () => {
      const clock = new ManualClock();
      const server = await rig.server({ token: 'token-a' });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
      server.create('configmaps', { metadata: { name: 'cm1', namespace: 'default' } });
      const m = rig.manager({ resources: ['configmaps', 'pods'], namespaces: ['default'] }, clock);
      const { tick } = observe(m, clock);
      await m.start();
      await until(() => m.entries().length === 2 && m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
      assert.equal(tick().text, '$(eye) 2/2');

      await server.goDown();
      // Every watch of the cluster fails with it (on HTTP/2 the streams of the closed session fail one after another).
      await until(() => m.entries().every((e) => e.state.phase !== 'watching'), () => 'a failure of every watch');
      const down = clock.now();
      const first = tick();
      assert.equal(first.text, '$(sync~spin) 0/2');
      assert.equal(first.background, 'none');
      assert.equal(first.ticking, true);

      const seen = await run(m, clock, 45, tick);
      const backgrounds = seen.map((s) => s.model.background);
      const firstWarning = seen.find((s) => s.model.background !== 'none');
      const firstError = seen.find((s) => s.model.background === 'error');
      assert.ok(firstWarning && firstError, backgrounds.join(' '));
      assert.ok(firstWarning.at - down > ESCALATION_MS, `nothing before 30 s: ${(firstWarning.at - down) / 1000} s`);
      // The first failure is the dropped watch (backing off), the retries then find the port closed (unreachable).
      assert.equal(firstWarning.model.background, 'warning', `warning first: ${backgrounds.join(' ')}`);
      assert.ok(firstError.at > firstWarning.at, 'then the error');
      assert.ok(firstError.at - down <= ESCALATION_MS + 5000, `error soon after 30 s of unreachable: ${(firstError.at - down) / 1000} s`);
      assert.deepEqual([...new Set(backgrounds)].filter((b) => b !== 'none').at(-1), 'error', 'it only gets worse while down');
      assert.ok(seen.filter((s) => s.at - down <= ESCALATION_MS).every((s) => s.model.background === 'none' && s.model.spinning));
      const last = seen[seen.length - 1].model;
      assert.equal(last.text, '$(error) 0/2');
      assert.match(last.tooltip, /unreachable for \d+ s/);

      await server.comeUp();
      for (let i = 0; i < 60 && !m.entries().every((e) => e.state.phase === 'watching'); i++) {
        await until(() => engineIdle(m, clock), () => `the engine to wait for the clock: ${JSON.stringify(m.entries().map((e) => e.state))}`);
        clock.advance(1000);
        await realSleep(5);
      }
      await until(() => m.entries().every((e) => e.state.phase === 'watching'), () => JSON.stringify(m.entries().map((e) => e.state)));
      const back = tick();
      assert.equal(back.text, '$(eye) 2/2');
      assert.equal(back.background, 'none');
      assert.equal(back.ticking, false);
    });

    it('server errors that keep failing: the warning background after 30 s, never the error one', async () => {
      const clock = new ManualClock();
      const server = await rig.server({ token: 'token-a' });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'token-a' });
      const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'] }, clock);
      const { tick } = observe(m, clock);
      await m.start();
      await until(() => m.entries()[0]?.state.phase === 'watching', () => JSON.stringify(m.entries()));
      const fault = server.injectFault({ type: 'status', code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' }, { times: Infinity });
      server.dropWatches('reset');
      await until(() => m.entries()[0]?.state.phase !== 'watching', () => 'a failure');
      const seen = await run(m, clock, 40, tick);
      assert.ok(seen.every((s) => s.model.background !== 'error'), seen.map((s) => s.model.background).join(' '));
      assert.equal(seen[seen.length - 1].model.background, 'warning');
      assert.match(seen[seen.length - 1].model.tooltip, /failing for \d+ s/);
      fault.remove();
    });

    it('a refused token: the error background after 30 s of unauthorized', async () => {
      const clock = new ManualClock();
      const server = await rig.server({ token: 'token-a' });
      server.writeKubeconfig(rig.kubeconfig, { context: 'ctx', token: 'not-the-token' });
      const m = rig.manager({ resources: ['configmaps'], namespaces: ['default'] }, clock);
      const { tick } = observe(m, clock);
      await m.start();
      await until(() => m.entries()[0]?.state.phase === 'unauthorized', () => JSON.stringify(m.entries()));
      assert.equal(tick().background, 'none');
      const seen = await run(m, clock, 35, tick);
      const last = seen[seen.length - 1].model;
      assert.equal(last.background, 'error');
      assert.equal(last.text, '$(error) 0/1');
      assert.match(last.tooltip, /unauthorized/);
      assert.doesNotMatch(last.tooltip, /not-the-token/);
    });
  });
});
