// A gcp/azure auth provider's `cmd-path` command for tests (as `gcloud config config-helper
// --format=json` answers). Its behaviour comes from files in the directory given as its first
// argument:
//   runs     one line appended per start (its pid)
//   token    the access token to print
//   expiry   its token_expiry (RFC 3339), if present
//   hang     never answer (a gcloud waiting on the network)
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const read = (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8').trim() : undefined);
appendFileSync(join(dir, 'runs'), `${process.pid}\n`);
if (existsSync(join(dir, 'hang'))) {
  setInterval(() => {}, 1 << 30);
} else {
  process.stdout.write(JSON.stringify({ credential: { access_token: read('token'), token_expiry: read('expiry') }, configuration: {} }));
}
