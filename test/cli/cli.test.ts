import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeApiServer } from '../support/apiserver';
import { buildCli, CliProcess, runCli, type Line } from './cli-process';

/**
 * The headless CLI as a person runs it: `node dist/cli.js watch ...` in a child process, against
 * the fake API server over HTTPS, with a kubeconfig file in a temp dir.
 */
describe('cli: kube-watch watch', function () {
  this.timeout(30_000);
  let server: FakeApiServer;
  let dir: string;
  let kubeconfig: string;
  let env: NodeJS.ProcessEnv;
  const running: CliProcess[] = [];

  before(async function () {
    this.timeout(60_000);
    await buildCli();
  });

  beforeEach(async () => {
    server = await FakeApiServer.start({ token: 'cli-token' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-cli-'));
    kubeconfig = path.join(dir, 'config');
    server.writeKubeconfig(kubeconfig, { context: 'fake', token: 'cli-token' });
    // No ambient kubeconfig may leak into the child.
    env = { PATH: process.env.PATH, HOME: dir, KUBECONFIG: '' };
  });

  afterEach(async () => {
    for (const p of running.splice(0)) await p.stop('SIGKILL');
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function start(...args: string[]): CliProcess {
    const p = new CliProcess(['watch', ...args, '--kubeconfig', kubeconfig], env);
    running.push(p);
    return p;
  }

  const identities = (objs: { metadata: { namespace?: string; name: string; uid?: string; resourceVersion?: string } }[]) =>
    objs
      .map((o) => ({ ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}), name: o.metadata.name, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion }))
      .sort((a, b) => `${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.namespace ?? ''}/${b.name}`));

  /**
   * Stops with `signal` and returns the snapshot of each type, checking they are the last lines,
   * one per type, and the exit is clean.
   */
  async function snapshotsAfter(p: CliProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<Map<string, unknown>> {
    const { code } = await p.stop(signal);
    assert.equal(code, 0, `exit code; stderr: ${p.stderr}`);
    assert.equal(p.stderr, '');
    assert.deepEqual(p.junk, [], 'every stdout line is JSON');
    const snapshots = p.lines.filter((l) => 'snapshot' in l);
    assert.ok(snapshots.length > 0, 'a snapshot line');
    assert.deepEqual(p.lines.slice(-snapshots.length), snapshots, `the snapshots are the last lines, got ${JSON.stringify(p.lines.slice(-3))}`);
    const byType = new Map(snapshots.map((l) => [String(l.resource), l.snapshot]));
    assert.equal(byType.size, snapshots.length, 'one snapshot line per type');
    return byType;
  }

  /** The snapshot of the one type watched. */
  async function snapshotAfter(p: CliProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<unknown> {
    const snapshots = await snapshotsAfter(p, signal);
    assert.equal(snapshots.size, 1);
    return [...snapshots.values()][0];
  }

  it('prints add, update and delete as JSON lines, lifecycle lines, and the snapshot on SIGTERM', async () => {
    server.create('configmaps', { metadata: { name: 'before', namespace: 'default' }, data: { v: '0' } });
    server.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' }, data: { v: '0' } });
    const p = start('configmaps');
    await p.waitFor((l) => l.lifecycle === 'synced', 'synced');
    await p.waitFor((l) => l.lifecycle === 'watch-opened', 'watch-opened');
    const before = server.get('configmaps', 'default', 'before');
    assert.ok(before);
    assert.deepEqual(
      p.lines.find((l) => l.event === 'add'),
      { event: 'add', resource: 'configmaps', namespace: 'default', name: 'before', uid: before.metadata.uid, resourceVersion: before.metadata.resourceVersion },
    );

    server.create('configmaps', { metadata: { name: 'x', namespace: 'default' }, data: { v: '1' } });
    const added = await p.waitFor((l) => l.event === 'add' && l.name === 'x', 'add of x');
    const x = server.get('configmaps', 'default', 'x');
    assert.ok(x);
    assert.equal(added.uid, x.metadata.uid);
    server.update('configmaps', { ...x, data: { v: '2' } });
    const updated = await p.waitFor((l) => l.event === 'update' && l.name === 'x', 'update of x');
    assert.equal(updated.resourceVersion, server.get('configmaps', 'default', 'x')?.metadata.resourceVersion);
    server.create('configmaps', { metadata: { name: 'y', namespace: 'default' }, data: { v: '1' } });
    server.delete('configmaps', 'default', 'before');
    const deleted = await p.waitFor((l) => l.event === 'delete', 'delete of before');
    assert.equal(deleted.name, 'before');
    assert.equal(deleted.finalStateUnknown, undefined);
    await p.waitFor((l) => l.event === 'add' && l.name === 'y', 'add of y');

    // Lifecycle: the states and events of a healthy start, each with an ISO time.
    const lifecycle = p.lines.filter((l) => typeof l.lifecycle === 'string');
    for (const name of ['connecting', 'listing', 'list-started', 'list-done', 'synced', 'watching', 'watch-opened']) {
      assert.ok(lifecycle.some((l) => l.lifecycle === name), `a ${name} line`);
    }
    for (const l of lifecycle) assert.match(String(l.at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const listDone = lifecycle.find((l) => l.lifecycle === 'list-done');
    assert.equal(listDone?.items, 1);
    assert.equal(typeof listDone?.resourceVersion, 'string');
    // Nothing from another namespace: the default namespace is "default".
    assert.ok(!p.lines.some((l) => l.name === 'elsewhere'));

    const snapshot = await snapshotAfter(p);
    assert.deepEqual(snapshot, identities(server.list('configmaps', 'default')));
    assert.ok(p.lines.some((l) => l.lifecycle === 'stopped'), 'a stopped line before the snapshot');
    assert.equal(server.openWatches(), 0);
  });

  it('watches every namespace with -A and stops cleanly on SIGINT', async () => {
    server.create('configmaps', { metadata: { name: 'a', namespace: 'ns1' } });
    server.create('configmaps', { metadata: { name: 'b', namespace: 'ns2' } });
    const p = start('cm', '-A');
    await p.waitFor((l) => l.lifecycle === 'synced', 'synced');
    const snapshot = await snapshotAfter(p, 'SIGINT');
    assert.deepEqual(snapshot, identities(server.list('configmaps')));
  });

  it("uses the context's namespace by default, and the selectors and timeout given", async () => {
    server.writeKubeconfig(kubeconfig, { context: 'fake', token: 'cli-token', namespace: 'team' });
    server.create('configmaps', { metadata: { name: 'mine', namespace: 'team', labels: { app: 'web' } } });
    server.create('configmaps', { metadata: { name: 'other-label', namespace: 'team', labels: { app: 'db' } } });
    server.create('configmaps', { metadata: { name: 'not-mine', namespace: 'default', labels: { app: 'web' } } });
    const p = start('configmaps', '-l', 'app=web', '--timeout-seconds', '7');
    const opened = await p.waitFor((l) => l.lifecycle === 'watch-opened', 'watch-opened');
    assert.equal(opened.timeoutSeconds, 7);
    const watch = server.requests.find((r) => r.verb === 'watch' && r.resource === 'configmaps');
    assert.equal(watch?.namespace, 'team');
    assert.equal(watch?.query.timeoutSeconds, '7');
    assert.equal(watch?.query.labelSelector, 'app=web');
    const snapshot = (await snapshotAfter(p)) as Line[];
    assert.deepEqual(
      snapshot.map((o) => o.name),
      ['mine'],
    );
  });

  it('resolves deployments.apps and a custom resource widgets.v1.example.com', async () => {
    server.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true });
    server.create('deployments.apps', { metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1 } });
    server.create('widgets.example.com', { metadata: { name: 'w1', namespace: 'default' }, spec: {} });

    const deployments = start('deployments.apps');
    const widgets = start('widgets.v1.example.com');
    await deployments.waitFor((l) => l.event === 'add' && l.name === 'web', 'the deployment');
    await widgets.waitFor((l) => l.event === 'add' && l.name === 'w1', 'the widget');
    server.create('widgets.example.com', { metadata: { name: 'w2', namespace: 'default' }, spec: {} });
    await widgets.waitFor((l) => l.event === 'add' && l.name === 'w2', 'the second widget');
    assert.ok(server.requests.some((r) => r.verb === 'watch' && r.path.startsWith('/apis/apps/v1/namespaces/default/deployments')));
    assert.ok(server.requests.some((r) => r.verb === 'watch' && r.path.startsWith('/apis/example.com/v1/namespaces/default/widgets')));
    assert.deepEqual(await snapshotAfter(deployments), identities(server.list('deployments.apps', 'default')));
    assert.deepEqual(await snapshotAfter(widgets), identities(server.list('widgets.example.com', 'default')));
  });

  it('watches several types at once (pods,configmaps): one watch each on one connection, every line names its type, one snapshot line per type on SIGTERM', async () => {
    server.create('pods', { metadata: { name: 'p1', namespace: 'default' }, spec: {} });
    server.create('configmaps', { metadata: { name: 'c1', namespace: 'default' } });
    const p = start('pods,configmaps');
    for (const resource of ['pods', 'configmaps']) await p.waitFor((l) => l.lifecycle === 'watch-opened' && l.resource === resource, `the ${resource} watch`);
    server.create('pods', { metadata: { name: 'p2', namespace: 'default' }, spec: {} });
    server.create('configmaps', { metadata: { name: 'c2', namespace: 'default' } });
    await p.waitFor((l) => l.event === 'add' && l.resource === 'pods' && l.name === 'p2', 'add of pod p2');
    await p.waitFor((l) => l.event === 'add' && l.resource === 'configmaps' && l.name === 'c2', 'add of configmap c2');
    const events = p.lines.filter((l) => typeof l.event === 'string');
    assert.deepEqual(
      events.map((l) => `${l.event} ${l.resource} ${l.name}`).sort(),
      ['add configmaps c1', 'add configmaps c2', 'add pods p1', 'add pods p2'],
    );
    const lifecycle = p.lines.filter((l) => typeof l.lifecycle === 'string');
    assert.deepEqual([...new Set(lifecycle.map((l) => l.resource))].sort(), ['configmaps', 'pods'], 'every lifecycle line names its type');
    for (const resource of ['pods', 'configmaps']) assert.ok(lifecycle.some((l) => l.lifecycle === 'synced' && l.resource === resource), `${resource} synced`);
    assert.equal(server.openWatches('pods') + server.openWatches('configmaps'), 2, 'one watch per type');
    if (process.env.FAKE_APISERVER_HTTP2 === '1') {
      assert.equal(server.openSockets(), 1, 'one connection carries both watches');
      assert.ok(lifecycle.some((l) => l.lifecycle === 'watch-opened' && l.protocol === 'h2'));
    }

    const snapshots = await snapshotsAfter(p);
    assert.deepEqual([...snapshots.keys()], ['pods', 'configmaps'], 'in the order given');
    assert.deepEqual(snapshots.get('pods'), identities(server.list('pods', 'default')));
    assert.deepEqual(snapshots.get('configmaps'), identities(server.list('configmaps', 'default')));
    assert.equal(server.openWatches(), 0);
  });

  it("spells types as kubectl does: deployments.apps, a CRD by plural and another by kind, a short name of one already listed once", async () => {
    server.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true });
    server.defineResource({ group: 'example.com', version: 'v1', resource: 'gadgets', kind: 'Gadget', namespaced: false });
    server.create('deployments.apps', { metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1 } });
    server.create('widgets.example.com', { metadata: { name: 'w1', namespace: 'default' }, spec: {} });
    server.create('gadgets.example.com', { metadata: { name: 'g1' }, spec: {} });
    const p = start('deployments.apps,widgets,Gadget,deploy');
    await p.waitFor((l) => l.event === 'add' && l.resource === 'deployments.apps' && l.name === 'web', 'the deployment');
    await p.waitFor((l) => l.event === 'add' && l.resource === 'widgets.example.com' && l.name === 'w1', 'the widget');
    await p.waitFor((l) => l.event === 'add' && l.resource === 'gadgets.example.com' && l.name === 'g1', 'the cluster-scoped gadget');
    // The add may come from the list, before the watch request is sent: wait for the watch itself.
    await p.waitFor((l) => l.lifecycle === 'watch-opened' && l.resource === 'gadgets.example.com', 'the gadgets watch');
    assert.ok(server.requests.some((r) => r.verb === 'watch' && r.path === '/apis/example.com/v1/gadgets'), 'a cluster-scoped type is watched cluster-wide');
    const snapshots = await snapshotsAfter(p);
    assert.deepEqual([...snapshots.keys()], ['deployments.apps', 'widgets.example.com', 'gadgets.example.com'], 'deploy is deployments.apps, watched once');
    assert.deepEqual(snapshots.get('gadgets.example.com'), identities(server.list('gadgets.example.com')));
  });

  describe('failures: exit 2 with one line on standard error', () => {
    async function expectFailure(args: string[], pattern: RegExp): Promise<void> {
      const { code, stdout, stderr } = await runCli(args, env);
      assert.equal(code, 2, `exit code for ${args.join(' ')}; stderr: ${stderr}`);
      const lines = stderr.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, `one stderr line, got: ${stderr}`);
      assert.match(lines[0], /^kube-watch: /);
      assert.match(lines[0], pattern);
      assert.doesNotMatch(stderr, /\n\s+at |Error:/, 'no stack trace');
      assert.doesNotMatch(stderr, /cli-token/, 'no credential');
      assert.deepEqual(stdout, []);
    }

    it('a bad flag', () => expectFailure(['watch', 'pods', '--no-such-flag', '--kubeconfig', kubeconfig], /unknown option --no-such-flag/));
    it('a missing resource argument', () => expectFailure(['watch'], /missing RESOURCE/));
    it('an unknown resource', () => expectFailure(['watch', 'foo', '--kubeconfig', kubeconfig], /the server has no resource type "foo"/));
    it('an unknown resource in a list: nothing is watched', async () => {
      await expectFailure(['watch', 'pods,foo,configmaps', '--kubeconfig', kubeconfig], /^kube-watch: the server has no resource type "foo"$/);
      assert.ok(!server.requests.some((r) => r.verb === 'watch' || r.verb === 'list' || r.verb === 'watchlist'), 'no list or watch was made');
    });
    it('an empty type in a list', () => expectFailure(['watch', 'pods,,configmaps', '--kubeconfig', kubeconfig], /an empty resource type in "pods,,configmaps"/));
    it('a missing kubeconfig file', () => expectFailure(['watch', 'pods', '--kubeconfig', path.join(dir, 'nope')], /cannot read kubeconfig .*nope: no such file/));
    it('an unknown context', () => expectFailure(['watch', 'pods', '--kubeconfig', kubeconfig, '--context', 'nope'], /context "nope" does not exist .*available contexts: fake/));
    it('a malformed kubeconfig, without echoing it', async () => {
      fs.writeFileSync(kubeconfig, 'users:\n- name: u\n  user: {token: cli-token: [\n');
      await expectFailure(['watch', 'pods', '--kubeconfig', kubeconfig], /is not valid YAML at line/);
    });
  });

  it('keeps retrying while the server is unreachable, reporting it, and still exits 0 on SIGTERM', async () => {
    await server.close();
    const p = start('configmaps');
    const line = await p.waitFor((l) => l.lifecycle === 'unreachable', 'an unreachable line');
    assert.match(String(line.reason), /ECONNREFUSED/);
    await p.waitFor((l) => l.lifecycle === 'backoff', 'a backoff line');
    assert.deepEqual(await snapshotAfter(p), []);
    server = await FakeApiServer.start({ token: 'cli-token' }); // for afterEach
  });

  it('prints --help and --version and exits 0', async () => {
    // Neither is JSON: the raw lines land in `junk`.
    const help = new CliProcess(['--help'], env);
    assert.equal((await help.exited).code, 0);
    assert.match(help.junk.join('\n'), /kube-watch watch RESOURCE\[,RESOURCE\.\.\.\]/);
    const version = new CliProcess(['--version'], env);
    assert.equal((await version.exited).code, 0);
    assert.match(version.junk.join(''), /^\d+\.\d+\.\d+$/);
  });

  it('on a Node older than 22.19 prints one line naming the version and exits 2, before loading the bundle', async () => {
    const { execFileSync, spawnSync } = await import('node:child_process');
    const { CLI } = await import('./cli-process');
    // The entry as an older Node sees it: process.versions.node says 20.11.1.
    const asOldNode = `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.11.1' } }); require(${JSON.stringify(CLI)});`;
    const r = spawnSync(process.execPath, ['-e', asOldNode, 'watch', 'pods'], { encoding: 'utf8', timeout: 15_000 });
    assert.equal(r.status, 2);
    assert.equal(r.stderr, 'kube-watch needs Node 22.19 or newer; this is Node 20.x\n');
    assert.equal(r.stdout, '');
    // A real older Node where the machine has one (this project's CI images have Node 20 as the system node).
    for (const old of ['/usr/bin/node', '/usr/local/bin/node']) {
      if (!fs.existsSync(old)) continue;
      const v = execFileSync(old, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      const [major, minor] = v.split('.').map(Number);
      if (major > 22 || (major === 22 && minor >= 19)) continue;
      const r = spawnSync(old, [CLI, '--version'], { encoding: 'utf8', timeout: 15_000 });
      assert.equal(r.status, 2, `${old} (Node ${v})`);
      assert.equal(r.stderr, `kube-watch needs Node 22.19 or newer; this is Node ${major}.x\n`);
    }
  });

  it('exits quietly with 0 when the reader of its standard output goes away (EPIPE)', async () => {
    const p = start('configmaps');
    await p.waitFor((l) => l.lifecycle === 'watch-opened', 'watch-opened');
    p.closeStdout();
    for (let i = 0; i < 20; i++) server.create('configmaps', { metadata: { name: `after-close-${i}`, namespace: 'default' } });
    const { code } = await p.stop('SIGKILL', 10_000, false);
    assert.equal(code, 0);
    assert.equal(p.stderr, '');
  });
});
