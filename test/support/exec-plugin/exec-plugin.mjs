// A kubeconfig exec credential plugin for tests. Its behaviour comes from files in the directory
// given as its first argument (see exec-plugin-fixture.ts):
//   runs        one line appended per start (the count of plugin processes)
//   token       the bearer token to hand out
//   cert, key   a client certificate and key (PEM) to hand out, if present
//   expires     an expirationTimestamp (RFC 3339), if present
//   exit-code   exit with this code instead (printing a fake secret on stderr, which must never be shown)
//   hang        never answer (an interactive login that nobody completes)
//   exec-info   written with KUBERNETES_EXEC_INFO as received
//   lifetime-ms a token cache, as kubelogin keeps one: hands out the cached token and its expiry
//               until `now` reaches that expiry, then issues the next token (tok-1, tok-2, ...)
//               for lifetime-ms; each issue appends a line to `issued`
//   now         the time (ms since the epoch) on the test's clock, for the token cache; when
//               present, each start appends it to `run-times`
//   prompt-code a device-code login first: asks on stderr for this code and reads a line from
//               stdin; the credential only when the line is the code (exit 1 otherwise, or when
//               stdin is closed: no terminal)
//   answer-api-version  the apiVersion of the ExecCredential printed (default ...k8s.io/v1)
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const file = (name) => join(dir, name);
const read = (name) => (existsSync(file(name)) ? readFileSync(file(name), 'utf8').trim() : undefined);

appendFileSync(file('runs'), `${process.pid}\n`);
if (read('now')) appendFileSync(file('run-times'), `${read('now')}\n`);
writeFileSync(file('exec-info'), process.env.KUBERNETES_EXEC_INFO ?? '');
const answerApiVersion = read('answer-api-version') ?? 'client.authentication.k8s.io/v1';

/** A device-code login, as kubelogin's: the prompt on stderr, the code typed on stdin. */
async function login(code) {
  process.stderr.write(`To sign in, open https://login.example.test/device and enter the code ${code}.\nCode: `);
  const line = await new Promise((resolve) => {
    let typed = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d) => {
      typed += d;
      const end = typed.indexOf('\n');
      if (end >= 0) resolve(typed.slice(0, end));
    });
    process.stdin.on('end', () => resolve(undefined));
    process.stdin.on('error', () => resolve(undefined));
  });
  process.stdin.destroy();
  if (line?.trim() !== code) {
    process.stderr.write(line === undefined ? 'error: no terminal to log in\n' : 'error: wrong code\n');
    process.exit(1);
  }
  process.stderr.write('Signed in.\n');
}

if (read('prompt-code')) await login(read('prompt-code'));

if (existsSync(file('hang'))) {
  setInterval(() => {}, 1 << 30);
} else if (read('exit-code')) {
  process.stderr.write('error: secret-token-in-stderr\n');
  process.exit(Number(read('exit-code')));
} else if (read('lifetime-ms')) {
  const now = Number(read('now') ?? Date.now());
  let cache = existsSync(file('cache.json')) ? JSON.parse(readFileSync(file('cache.json'), 'utf8')) : undefined;
  if (!cache || now >= cache.expiresAt) {
    const n = (read('issued') ?? '').split('\n').filter(Boolean).length + 1;
    cache = { token: `tok-${n}`, expiresAt: now + Number(read('lifetime-ms')) };
    writeFileSync(file('cache.json'), JSON.stringify(cache));
    appendFileSync(file('issued'), `${cache.token} ${now}\n`);
  }
  const status = { token: cache.token, expirationTimestamp: new Date(cache.expiresAt).toISOString() };
  process.stdout.write(JSON.stringify({ apiVersion: answerApiVersion, kind: 'ExecCredential', status }));
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
  process.stdout.write(JSON.stringify({ apiVersion: answerApiVersion, kind: 'ExecCredential', status }));
}
