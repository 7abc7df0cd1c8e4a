// A kubeconfig exec credential plugin for tests. Its behaviour comes from files in the directory
// given as its first argument (see exec-plugin-fixture.ts):
//   runs        one line appended per start (the count of plugin processes)
//   token       the bearer token to hand out
//   cert, key   a client certificate and key (PEM) to hand out, if present
//   expires     an expirationTimestamp (RFC 3339), if present
//   exit-code   exit with this code instead (printing a fake secret on stderr, which must never be shown)
//   hang        never answer (an interactive login that nobody completes)
//   exec-info   written with KUBERNETES_EXEC_INFO as received
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const file = (name) => join(dir, name);
const read = (name) => (existsSync(file(name)) ? readFileSync(file(name), 'utf8').trim() : undefined);

appendFileSync(file('runs'), `${process.pid}\n`);
writeFileSync(file('exec-info'), process.env.KUBERNETES_EXEC_INFO ?? '');
if (existsSync(file('hang'))) {
  setInterval(() => {}, 1 << 30);
} else if (read('exit-code')) {
  process.stderr.write('error: secret-token-in-stderr\n');
  process.exit(Number(read('exit-code')));
} else {
  const status = {};
  const token = read('token');
  if (token) status.token = token;
  const cert = read('cert');
  if (cert) {
    status.clientCertificateData = cert;
    status.clientKeyData = read('key');
  }
  const expires = read('expires');
  if (expires) status.expirationTimestamp = expires;
  process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status }));
}
