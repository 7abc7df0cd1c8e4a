import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base/clock';
import type { ExecInteraction, ExecLoginRequest, ExecLoginSession } from '../../src/connection/credentials/exec-interaction';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { WatchManager } from '../../src/manager';
import { ExecPluginFixture } from '../support/exec-plugin/exec-plugin-fixture';
import { PROTOCOLS, REAL_BOUND_MS, until, useControlPlane, type ControlPlane } from './support';

const SCRIPT = path.join(import.meta.dirname, '..', 'support', 'exec-plugin', 'exec-plugin.mjs');

/** A terminal the test types into, as a user answers a device-code login: what it showed, and its sessions. */
class TypingTerminal implements ExecInteraction {
  readonly opened: ExecLoginRequest[] = [];
  readonly ended: ({ ok: true } | { ok: false; reason: string })[] = [];
  shown = '';

  /** `answer(shownSoFar)` returns what the user types next, once, or undefined to wait. */
  constructor(private readonly answer: (shown: string) => string | undefined) {}

  open(request: ExecLoginRequest): ExecLoginSession {
    this.opened.push(request);
    const listeners: ((text: string) => void)[] = [];
    let answered = false;
    return {
      show: (text) => {
        this.shown += text;
        const typed = answered ? undefined : this.answer(this.shown);
        if (typed === undefined) return;
        answered = true;
        for (const l of listeners) l(typed);
      },
      onInput: (listener) => listeners.push(listener),
      end: (outcome) => this.ended.push(outcome),
    };
  }
}

/**
 * W15: exec credential plugins that log in, through the whole product path (kubeconfig loader,
 * manager, credential registry, transport) against a real kube-apiserver 1.34.9 with token auth:
 * the plugin is the test fixture, asking for a device code on stderr as kubelogin does.
 */
describe('[real] exec plugins that log in (kube-apiserver 1.34)', function () {
  this.timeout(180_000);
  const plane = useControlPlane();
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A kubeconfig file whose user is the fixture's plugin: the CA by file, and the cluster's exec extension. */
  const kubeconfigFile = (p: ControlPlane, fixture: ExecPluginFixture, exec: { interactiveMode: string; apiVersion?: string }): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-real-exec-login-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'ca.pem'), p.caPem);
    const q = JSON.stringify;
    const file = path.join(dir, 'config');
    fs.writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: "real"',
        '  cluster:',
        `    server: ${q(p.url)}`,
        '    certificate-authority: "ca.pem"',
        '    extensions:',
        '    - name: "client.authentication.k8s.io/exec"',
        '      extension:',
        '        audience: "kube-watch-test"',
        '        tenant: {id: 42}',
        '    - name: "something-else"',
        '      extension: {ignored: true}',
        'users:',
        '- name: "sso-user"',
        '  user:',
        '    exec:',
        `      apiVersion: ${q(exec.apiVersion ?? 'client.authentication.k8s.io/v1')}`,
        `      command: ${q(process.execPath)}`,
        `      args: [${q(SCRIPT)}, ${q(fixture.dir)}]`,
        `      interactiveMode: ${q(exec.interactiveMode)}`,
        '      provideClusterInfo: true',
        'contexts:',
        '- name: "real"',
        '  context: {cluster: "real", user: "sso-user"}',
        'current-context: "real"',
        '',
      ].join('\n'),
    );
    return file;
  };

  const startManager = async (http2: boolean, kubeconfigPath: string, namespace: string, interaction: ExecInteraction | undefined) => {
    const clusters = new ClusterRegistry(false);
    cleanups.push(() => clusters.dispose());
    const m = new WatchManager(
      { contexts: ['real'], resources: ['configmaps', 'secrets', 'services'], namespaces: [namespace], kubeconfigPath },
      { clock: systemClock, clusterRegistry: clusters, transportFactory: kubeConfigTransportFactoryWith(clusters, { http2, clock: systemClock }), execInteraction: interaction },
    );
    cleanups.push(() => m.stop());
    await m.start();
    return m;
  };
  const states = (m: WatchManager) => JSON.stringify(m.entries().map((e) => [e.id, e.state.phase, e.error]));

  for (const { label, http2 } of PROTOCOLS) {
    it(`W15 [real] ${label}: a plugin with interactiveMode IfAvailable logs in once in the user's terminal for three waiting watches; it is told the terminal is there, and provideClusterInfo gives it the CA file's contents and the cluster's exec extension as client-go does`, async () => {
      const p = plane();
      const home = await p.setup.namespace();
      const fixture = new ExecPluginFixture(p.users.admin.token);
      cleanups.push(() => fixture.dispose());
      fixture.setLoginCode('WXYZ-1234');
      const terminal = new TypingTerminal((shown) => (shown.includes('Code: ') ? 'WXYZ-1234\n' : undefined));
      const m = await startManager(http2, kubeconfigFile(p, fixture, { interactiveMode: 'IfAvailable' }), home, terminal);
      await until(() => m.entries().length === 3 && m.entries().every((e) => e.state.phase === 'watching'), () => states(m), REAL_BOUND_MS);

      assert.equal(fixture.runs(), 1, 'one login for every watch waiting on it');
      assert.deepEqual(terminal.opened, [{ plugin: path.basename(process.execPath), user: 'sso-user', server: p.url }]);
      assert.ok(terminal.shown.includes('enter the code WXYZ-1234') && terminal.shown.includes('Signed in.'), `the plugin's prompts are shown: ${terminal.shown}`);
      assert.ok(!terminal.shown.includes(p.users.admin.token), 'never the credential');
      assert.deepEqual(terminal.ended, [{ ok: true }]);
      const info = fixture.execInfo() as { apiVersion: string; spec: { interactive: boolean; cluster: Record<string, unknown> } };
      assert.equal(info.apiVersion, 'client.authentication.k8s.io/v1');
      assert.equal(info.spec.interactive, true, 'told that a terminal answers');
      assert.deepEqual(info.spec.cluster, {
        server: p.url,
        'certificate-authority-data': Buffer.from(p.caPem).toString('base64'),
        config: { audience: 'kube-watch-test', tenant: { id: 42 } },
      });
    });
  }

  it('W15 [real] HTTP/2: without a terminal (the CLI), IfAvailable runs with stdin closed and is told so; Always is refused in words before the plugin runs', async () => {
    const p = plane();
    const home = await p.setup.namespace();
    const fixture = new ExecPluginFixture(p.users.admin.token);
    cleanups.push(() => fixture.dispose());

    const quiet = await startManager(true, kubeconfigFile(p, fixture, { interactiveMode: 'IfAvailable' }), home, undefined);
    await until(() => quiet.entries().length === 3 && quiet.entries().every((e) => e.state.phase === 'watching'), () => states(quiet), REAL_BOUND_MS);
    assert.equal((fixture.execInfo() as { spec: { interactive: boolean } }).spec.interactive, false);
    await quiet.stop();

    const runsBefore = fixture.runs();
    const always = await startManager(true, kubeconfigFile(p, fixture, { interactiveMode: 'Always' }), home, undefined);
    await until(() => always.entries().length === 3 && always.entries().every((e) => e.error?.includes('must log in interactively')), () => states(always), REAL_BOUND_MS);
    assert.ok(always.entries().every((e) => e.state.phase === 'credentials-failed'), states(always));
    assert.match(always.entries()[0].error ?? '', /the exec plugin `[^`]+` must log in interactively \(interactiveMode: Always\), and there is no terminal to answer it here/);
    assert.equal(fixture.runs(), runsBefore, 'the plugin never ran');
  });

  it('W15 [real] HTTP/2: an ExecCredential of another apiVersion than the kubeconfig asks for is refused in words naming both, never the credential', async () => {
    const p = plane();
    const home = await p.setup.namespace();
    const fixture = new ExecPluginFixture(p.users.admin.token);
    cleanups.push(() => fixture.dispose());
    fixture.setAnswerApiVersion('client.authentication.k8s.io/v1beta1');
    const m = await startManager(true, kubeconfigFile(p, fixture, { interactiveMode: 'Never' }), home, undefined);
    await until(() => m.entries().length === 3 && m.entries().every((e) => e.state.phase === 'credentials-failed'), () => states(m), REAL_BOUND_MS);
    const error = m.entries()[0].error ?? '';
    assert.match(error, /returned an ExecCredential of "client\.authentication\.k8s\.io\/v1beta1", and its kubeconfig asks for "client\.authentication\.k8s\.io\/v1"/);
    assert.ok(!error.includes(p.users.admin.token));
  });
});
