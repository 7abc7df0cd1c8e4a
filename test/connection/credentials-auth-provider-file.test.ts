import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { readKubeConfigFiles, selectContext } from '../../src/cluster/kubeconfig-loader';
import { currentUser } from '../../src/connection/credentials/kubeconfig-user';
import { withUpdates } from '../../src/connection/credentials/oidc/auth-provider-file';

const OIDC_USER = `# kubectl wrote this
apiVersion: v1
users:
- name: alice # the OIDC one
  user:
    auth-provider:
      config:
        client-id: kube
        id-token: "old.id.token"
        idp-issuer-url: https://dex.example
        refresh-token: old-refresh
      name: oidc
- name: bob
  user: {token: 'b'}
`;

describe('where refreshed auth-provider tokens are written (F44)', () => {
  it('changes only the two values, byte for byte elsewhere (comments, quoting, flow style)', () => {
    const next = withUpdates(OIDC_USER, 'alice', 'oidc', { 'id-token': 'new.id.token', 'refresh-token': 'new-refresh' });
    assert.equal(next, OIDC_USER.replace('old.id.token', 'new.id.token').replace('old-refresh', 'new-refresh'));
  });

  it('adds a key the file lacks by a YAML round trip that keeps comments and kubectl\'s unindented lists', () => {
    const next = withUpdates(OIDC_USER.replace('        refresh-token: old-refresh\n', ''), 'alice', 'oidc', { 'id-token': 'new.id.token', 'refresh-token': 'new-refresh' })!;
    assert.ok(next.startsWith('# kubectl wrote this\n'));
    assert.match(next, /^- name: alice # the OIDC one$/m);
    const config = parse(next).users[0].user['auth-provider'].config;
    assert.deepEqual(config, { 'client-id': 'kube', 'id-token': 'new.id.token', 'idp-issuer-url': 'https://dex.example', 'refresh-token': 'new-refresh' });
    assert.deepEqual(parse(next).users[1], { name: 'bob', user: { token: 'b' } });
  });

  it('writes nothing for a user the file no longer defines, or whose auth provider changed', () => {
    assert.equal(withUpdates(OIDC_USER, 'carol', 'oidc', { 'id-token': 'x' }), undefined);
    assert.equal(withUpdates(OIDC_USER, 'alice', 'gcp', { 'id-token': 'x' }), undefined);
    assert.equal(withUpdates('not: [valid', 'alice', 'oidc', { 'id-token': 'x' }), undefined);
  });

  it('knows the file each user came from in a KUBECONFIG list, and resolves its tokenFile against that file\'s directory', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-defined-in-'));
    try {
      const a = path.join(root, 'a', 'config');
      const b = path.join(root, 'b', 'config');
      fs.mkdirSync(path.dirname(a));
      fs.mkdirSync(path.dirname(b));
      fs.writeFileSync(a, 'apiVersion: v1\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1"}\ncontexts:\n- name: ctx\n  context: {cluster: c, user: alice}\ncurrent-context: ctx\nusers: []\n');
      fs.writeFileSync(b, 'apiVersion: v1\nclusters: []\ncontexts: []\nusers:\n- name: alice\n  user: {tokenFile: "tokens/alice"}\n');
      const { kc, files } = readKubeConfigFiles({ path: [a, b].join(path.delimiter) });
      const user = currentUser(selectContext(kc, undefined, files).kc)!;
      assert.equal(user.definedIn, b);
      assert.equal(user.tokenFile, path.join(root, 'b', 'tokens', 'alice'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
