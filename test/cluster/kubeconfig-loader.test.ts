import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfigError, loadKubeConfig } from '../../src/cluster/kubeconfig-loader';
import { contextFingerprint } from '../../src/cluster/context-identity';

const SECRET = 'sekret-token-0123456789';

function kubeconfig(opts: { current?: string; token?: string; server?: string; extra?: string } = {}): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster:
    server: ${opts.server ?? 'https://127.0.0.1:6443'}
    insecure-skip-tls-verify: true
users:
- name: u1
  user:
    token: ${opts.token ?? SECRET}
contexts:
- name: one
  context: {cluster: c1, user: u1, namespace: team-a}
- name: two
  context: {cluster: c1, user: u1}
- name: orphan
  context: {cluster: nowhere, user: u1}
- name: nouser
  context: {cluster: c1, user: ghost}
${opts.current === undefined ? 'current-context: one' : opts.current ? `current-context: ${opts.current}` : ''}
${opts.extra ?? ''}`;
}

describe('kubeconfig loader', () => {
  let dir: string;
  const write = (name: string, text: string): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-kubeconfig-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Asserts a KubeConfigError whose one-line message matches and leaks nothing. */
  function rejects(fn: () => unknown, pattern: RegExp): void {
    assert.throws(fn, (err: unknown) => {
      assert.ok(err instanceof KubeConfigError, String(err));
      assert.match(err.message, pattern);
      assert.ok(!err.message.includes('\n'), 'one line');
      assert.ok(!err.message.includes(SECRET), 'no credential in the message');
      return true;
    });
  }

  it('loads the current context, or a named one, and keeps only its cluster and user', () => {
    const file = write('config', kubeconfig());
    const a = loadKubeConfig({ path: file });
    assert.equal(a.contextName, 'one');
    assert.deepEqual(a.files, [file]);
    assert.equal(a.kc.getCurrentCluster()?.server, 'https://127.0.0.1:6443');
    assert.equal(a.kc.getCurrentUser()?.token, SECRET);
    assert.equal(a.kc.getContexts().length, 1);
    assert.equal(loadKubeConfig({ path: file, context: 'two' }).contextName, 'two');
  });

  it('merges a KUBECONFIG-style list: the first definition wins and missing files are skipped', () => {
    const first = write('a', kubeconfig({ current: 'two', server: 'https://first:1' }));
    const second = write('b', kubeconfig({ current: 'one', server: 'https://second:2' }));
    const list = [path.join(dir, 'missing'), first, second].join(path.delimiter);
    const loaded = loadKubeConfig({ path: list });
    assert.equal(loaded.contextName, 'two');
    assert.equal(loaded.kc.getCurrentCluster()?.server, 'https://first:1');
    assert.deepEqual(loaded.files, [first, second]);
  });

  it('reports a missing file, a directory and an empty list', () => {
    rejects(() => loadKubeConfig({ path: path.join(dir, 'nope') }), /^cannot read kubeconfig .*nope: no such file$/);
    rejects(() => loadKubeConfig({ path: dir }), /it is a directory/);
    rejects(() => loadKubeConfig({ path: [path.join(dir, 'x'), path.join(dir, 'y')].join(path.delimiter) }), /^no kubeconfig file found/);
  });

  it('reports malformed YAML by position, without echoing the file', () => {
    const file = write('bad', `users:\n- name: u\n  user: {token: ${SECRET}: oops: [}\n`);
    rejects(() => loadKubeConfig({ path: file }), /is not valid YAML at line \d+/);
  });

  it('reports a kubeconfig without contexts, or an incomplete one', () => {
    rejects(() => loadKubeConfig({ path: write('empty', '') }), /defines no contexts/);
    rejects(() => loadKubeConfig({ path: write('none', 'apiVersion: v1\nkind: Config\n') }), /defines no contexts/);
    rejects(() => loadKubeConfig({ path: write('partial', 'clusters:\n- name: c\n  cluster: {}\n') }), /incomplete: clusters\[0\]\.cluster\.server is missing/);
  });

  it('reports unknown contexts with the available ones, and contexts naming undefined clusters or users', () => {
    const file = write('config', kubeconfig());
    rejects(() => loadKubeConfig({ path: file, context: 'three' }), /context "three" does not exist .*available contexts: one, two, orphan, nouser$/);
    rejects(() => loadKubeConfig({ path: file, context: 'orphan' }), /context "orphan" names cluster "nowhere"/);
    rejects(() => loadKubeConfig({ path: file, context: 'nouser' }), /context "nouser" names user "ghost"/);
    rejects(() => loadKubeConfig({ path: write('nocurrent', kubeconfig({ current: '' })) }), /sets no current-context; choose one of: one, two/);
    rejects(() => loadKubeConfig({ path: write('http', kubeconfig({ server: 'http://127.0.0.1:8080' }).replace('insecure-skip-tls-verify: true', '')) }), /cluster "c1" uses plain http:\/\//);
  });

  it('fingerprints tell a credential change from a server change, and hold no credential', () => {
    const fp = (text: string) => contextFingerprint(loadKubeConfig({ path: write('fp', text) }).kc);
    const base = fp(kubeconfig());
    const rotated = fp(kubeconfig({ token: 'another-token' }));
    const moved = fp(kubeconfig({ server: 'https://elsewhere:6443' }));
    assert.deepEqual(fp(kubeconfig()), base);
    assert.equal(rotated.cluster, base.cluster);
    assert.notEqual(rotated.user, base.user);
    assert.notEqual(moved.cluster, base.cluster);
    assert.equal(moved.user, base.user);
    assert.ok(!JSON.stringify(base).includes(SECRET));
  });
});
