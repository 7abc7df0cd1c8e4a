/**
 * An exec credential plugin (exec-plugin.mjs, run by Node) whose answers the test controls
 * through files, and the kubeconfig of a user that runs it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.join(import.meta.dirname, 'exec-plugin.mjs');
const CERTS = path.join(import.meta.dirname, '..', 'certs');

export interface ExecKubeconfigOptions {
  server: string;
  caPem?: string;
  /** Cluster proxy-url. */
  proxyUrl?: string;
  /** Cluster tls-server-name (a server reached under a test-only host name). */
  tlsServerName?: string;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
  provideClusterInfo?: boolean;
  /** Context names, all on the same cluster and user; default ['exec-context']. */
  contexts?: string[];
}

export class ExecPluginFixture {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-exec-plugin-'));

  constructor(token: string) {
    this.setToken(token);
  }

  setToken(token: string): void {
    fs.writeFileSync(path.join(this.dir, 'token'), token);
  }

  /** Hands out client certificate `a` or `b` (test/support/certs) from now on. */
  setClientCert(which: 'a' | 'b'): void {
    fs.copyFileSync(path.join(CERTS, `client-${which}.pem`), path.join(this.dir, 'cert'));
    fs.copyFileSync(path.join(CERTS, `client-${which}-key.pem`), path.join(this.dir, 'key'));
  }

  setExpiry(at: Date | undefined): void {
    this.toggle('expires', at?.toISOString());
  }

  setHang(hang: boolean): void {
    this.toggle('hang', hang ? '1' : undefined);
  }

  /** A device-code login before the credential: the plugin asks for `code` on stderr and reads it from stdin. */
  setLoginCode(code: string | undefined): void {
    this.toggle('prompt-code', code);
  }

  /** The apiVersion of the ExecCredential the plugin prints (default client.authentication.k8s.io/v1). */
  setAnswerApiVersion(apiVersion: string | undefined): void {
    this.toggle('answer-api-version', apiVersion);
  }

  setExitCode(code: number | undefined): void {
    this.toggle('exit-code', code === undefined ? undefined : String(code));
  }

  /**
   * Behaves as kubelogin's token cache: the same token and expiry until the expiry passes on
   * the test's clock (`setNow`), then the next token (tok-1, tok-2, ...) for `lifetimeMs`.
   */
  setCaching(lifetimeMs: number | undefined): void {
    this.toggle('lifetime-ms', lifetimeMs === undefined ? undefined : String(lifetimeMs));
  }

  /** The time on the test's clock, for the token cache. */
  setNow(ms: number): void {
    this.toggle('now', String(ms));
  }

  /** The test clock's time (`setNow`) at each plugin start since it was first set. */
  runTimes(): number[] {
    const f = path.join(this.dir, 'run-times');
    return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map(Number) : [];
  }

  /** Tokens the cache issued so far, oldest first, with the clock time of each issue. */
  issued(): { token: string; at: number }[] {
    const f = path.join(this.dir, 'issued');
    if (!fs.existsSync(f)) return [];
    return fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [token, at] = line.split(' ');
        return { token, at: Number(at) };
      });
  }

  /** How many plugin processes were started so far. */
  runs(): number {
    const f = path.join(this.dir, 'runs');
    return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
  }

  /** The pids of the plugin processes started so far. */
  pids(): number[] {
    const f = path.join(this.dir, 'runs');
    return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map(Number) : [];
  }

  /** KUBERNETES_EXEC_INFO as the last run received it. */
  execInfo(): unknown {
    const text = fs.readFileSync(path.join(this.dir, 'exec-info'), 'utf8');
    return text ? JSON.parse(text) : undefined;
  }

  kubeconfig(opts: ExecKubeconfigOptions): string {
    const q = (s: string): string => JSON.stringify(s);
    const cluster = [`    server: ${q(opts.server)}`];
    if (opts.caPem) cluster.push(`    certificate-authority-data: ${q(Buffer.from(opts.caPem).toString('base64'))}`);
    if (opts.proxyUrl) cluster.push(`    proxy-url: ${q(opts.proxyUrl)}`);
    if (opts.tlsServerName) cluster.push(`    tls-server-name: ${q(opts.tlsServerName)}`);
    const contexts = opts.contexts ?? ['exec-context'];
    return [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: "exec-cluster"',
      '  cluster:',
      ...cluster,
      'users:',
      '- name: "exec-user"',
      '  user:',
      '    exec:',
      '      apiVersion: "client.authentication.k8s.io/v1"',
      `      command: ${q(process.execPath)}`,
      `      args: [${q(SCRIPT)}, ${q(this.dir)}]`,
      `      interactiveMode: ${q(opts.interactiveMode ?? 'Never')}`,
      `      provideClusterInfo: ${opts.provideClusterInfo ? 'true' : 'false'}`,
      'contexts:',
      ...contexts.flatMap((c) => [`- name: ${q(c)}`, '  context:', '    cluster: "exec-cluster"', '    user: "exec-user"']),
      `current-context: ${q(contexts[0])}`,
      '',
    ].join('\n');
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private toggle(name: string, value: string | undefined): void {
    const f = path.join(this.dir, name);
    if (value === undefined) fs.rmSync(f, { force: true });
    else fs.writeFileSync(f, value);
  }
}
