import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { execExtensionsOf, type KubeconfigCluster } from '../connection/credentials/kubeconfig-cluster';
import type { KubeconfigUser } from '../connection/credentials/kubeconfig-user';
import { fileProblem } from '../base/file-problem';

/**
 * A kubeconfig could not be used: a file is missing or unreadable, is not YAML, defines no
 * contexts, or the requested context is unknown or incomplete.
 * Invariant: `message` is one line and never contains file contents or credentials; it may
 * name files, contexts, clusters and users.
 */
export class KubeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeConfigError';
  }
}

export interface KubeConfigSource {
  /**
   * A kubeconfig file, or a KUBECONFIG-style list separated by `path.delimiter`. Omitted: the
   * `KUBECONFIG` environment variable, else `~/.kube/config`, else the in-cluster service
   * account (as `KubeConfig.loadFromDefault` does).
   */
  path?: string;
}

export interface KubeConfigSelection extends KubeConfigSource {
  /** A context name; omitted = the kubeconfig's current-context. */
  context?: string;
}

/** Every file of a kubeconfig, merged; no context chosen yet. */
export interface KubeConfigFiles {
  /** The merged configuration: the first file that names a cluster, user or context wins, as with kubectl. */
  kc: KubeConfig;
  /** Absolute paths of the files that were read (empty for the in-cluster configuration). */
  files: string[];
}

export interface LoadedKubeConfig {
  /** A configuration whose current context is `contextName` and that holds only its cluster and user. */
  kc: KubeConfig;
  contextName: string;
  files: string[];
}

/** Present inside a pod: the in-cluster fallback when there is no kubeconfig file. */
const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/** Loads a kubeconfig and selects a context. Throws KubeConfigError for anything unusable. */
export function loadKubeConfig(options: KubeConfigSelection = {}): LoadedKubeConfig {
  const { kc, files } = readKubeConfigFiles(options);
  const { kc: selected, contextName } = selectContext(kc, options.context, files);
  return { kc: selected, contextName, files };
}

/**
 * The files a kubeconfig source consults, whether or not they exist: the explicit path or list,
 * else the KUBECONFIG list, else `~/.kube/config`. `explicit` is true for a single given path,
 * which must exist; in a list, missing files are skipped as kubectl skips them.
 */
export function kubeconfigCandidates(source: KubeConfigSource = {}): { files: string[]; explicit: boolean } {
  const given = source.path?.trim();
  const list = given || process.env.KUBECONFIG || '';
  if (list) {
    const files = list
      .split(path.delimiter)
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map(expandHome);
    return { files, explicit: Boolean(given) && files.length === 1 };
  }
  const home = os.homedir();
  return { files: home ? [path.join(home, '.kube', 'config')] : [], explicit: false };
}

/**
 * Reads and merges the kubeconfig files (see `kubeconfigCandidates`). With no file at all, the
 * in-cluster service account is used when there is one.
 */
export function readKubeConfigFiles(source: KubeConfigSource = {}): KubeConfigFiles {
  const candidates = kubeconfigCandidates(source);
  const files = candidates.explicit ? candidates.files : candidates.files.filter((p) => fs.existsSync(p));
  if (files.length > 0) return { kc: mergeFiles(files), files };
  if (!source.path?.trim() && !process.env.KUBECONFIG && fs.existsSync(SERVICE_ACCOUNT_TOKEN)) {
    const kc = new KubeConfig();
    try {
      kc.loadFromCluster();
    } catch {
      throw new KubeConfigError('the in-cluster service account configuration cannot be read');
    }
    return { kc, files: [] };
  }
  const looked = candidates.files.join(', ');
  throw new KubeConfigError(looked ? `no kubeconfig file found (looked for ${looked})` : 'no kubeconfig found: set KUBECONFIG');
}

/**
 * Picks a context out of a merged kubeconfig and checks that it names a defined cluster (and
 * user, when it names one). `context` omitted = the current-context.
 */
export function selectContext(
  kc: KubeConfig,
  context: string | undefined,
  files: readonly string[] = [],
): { kc: KubeConfig; contextName: string } {
  const where = files.length === 1 ? ` in ${files[0]}` : files.length > 1 ? ` in ${files.join(path.delimiter)}` : '';
  const contexts = kc.getContexts();
  if (contexts.length === 0) throw new KubeConfigError(`the kubeconfig${where} defines no contexts`);
  const available = contexts.map((c) => c.name).join(', ');
  const name = context || kc.getCurrentContext();
  if (!name) throw new KubeConfigError(`the kubeconfig${where} sets no current-context; choose one of: ${available}`);
  const ctx = kc.getContextObject(name);
  if (!ctx) {
    const what = context ? `context "${name}"` : `the current-context "${name}"`;
    throw new KubeConfigError(`${what} does not exist in the kubeconfig${where}; available contexts: ${available}`);
  }
  const cluster = kc.getCluster(ctx.cluster);
  if (!cluster) throw new KubeConfigError(`context "${name}" names cluster "${ctx.cluster}", which the kubeconfig${where} does not define`);
  if (/^http:/i.test(cluster.server) && !cluster.skipTLSVerify) {
    // client-node refuses such a cluster on every request; say so once, clearly.
    throw new KubeConfigError(`cluster "${cluster.name}" uses plain http://, which @kubernetes/client-node only accepts with insecure-skip-tls-verify: true`);
  }
  let user: User | null = null;
  if (ctx.user) {
    user = kc.getUser(ctx.user);
    if (!user) throw new KubeConfigError(`context "${name}" names user "${ctx.user}", which the kubeconfig${where} does not define`);
  }
  return { kc: singleContext(ctx, cluster, user), contextName: name };
}

/** The namespace a context sets, if any (kubectl's default namespace for it). */
export function contextNamespace(kc: KubeConfig, contextName: string): string | undefined {
  return kc.getContextObject(contextName)?.namespace || undefined;
}

function singleContext(ctx: Context, cluster: Cluster, user: User | null): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({ clusters: [cluster], users: user ? [user] : [], contexts: [ctx], currentContext: ctx.name });
  return kc;
}

/** kubectl's merge: the first file that sets current-context wins, the first definition of each name wins. */
function mergeFiles(files: string[]): KubeConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext = '';
  for (const file of files) {
    const one = parseFile(file);
    for (const c of one.getClusters()) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of one.getUsers()) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of one.getContexts()) if (!contexts.has(c.name)) contexts.set(c.name, c);
    if (!currentContext && one.getCurrentContext()) currentContext = one.getCurrentContext();
  }
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  });
  return kc;
}

function parseFile(file: string): KubeConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new KubeConfigError(`cannot read kubeconfig ${file}: ${fileProblem(err)}`);
  }
  const kc = new KubeConfig();
  if (text.trim() === '') {
    kc.loadFromOptions({ clusters: [], users: [], contexts: [], currentContext: '' });
    return kc;
  }
  let doc: unknown;
  try {
    doc = load(text);
  } catch (err) {
    throw new KubeConfigError(`kubeconfig ${file} ${parseProblem(err)}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new KubeConfigError(`kubeconfig ${file} is not a kubeconfig (expected a YAML mapping with clusters, users and contexts)`);
  }
  const dir = path.dirname(file);
  const tokenFiles = takeTokenFiles(doc, dir);
  const execExtensions = execExtensionsOf(doc);
  try {
    kc.loadFromString(JSON.stringify(doc));
  } catch (err) {
    throw new KubeConfigError(`kubeconfig ${file} ${parseProblem(err)}`);
  }
  // loadFromString leaves these undefined for YAML that is not a mapping.
  if (!Array.isArray(kc.contexts) || !Array.isArray(kc.clusters) || !Array.isArray(kc.users)) {
    throw new KubeConfigError(`kubeconfig ${file} is not a kubeconfig (expected a YAML mapping with clusters, users and contexts)`);
  }
  kc.makePathsAbsolute(dir);
  for (const cluster of kc.clusters as KubeconfigCluster[]) {
    if (execExtensions.has(cluster.name)) cluster.execExtension = execExtensions.get(cluster.name);
  }
  for (const user of kc.users as KubeconfigUser[]) {
    user.definedIn = file;
    const tokenFile = tokenFiles.get(user.name);
    if (tokenFile) user.tokenFile = tokenFile;
  }
  return kc;
}

/**
 * Takes every user's token file out of a parsed kubeconfig: `tokenFile` as kubectl spells it
 * (which client-node ignores) and `token-file` as client-node spells it (which it reads at once,
 * relative to the working directory, untrimmed, failing the whole file when any user's token
 * file is unreadable). The paths come back absolute, resolved against the kubeconfig's
 * directory as kubectl resolves them; the credentials read them when a context in use needs
 * them, and again as they rotate. kubectl's spelling wins when both are there.
 */
function takeTokenFiles(doc: object, dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const users = (doc as { users?: unknown }).users;
  if (!Array.isArray(users)) return found;
  for (const entry of users as { name?: unknown; user?: Record<string, unknown> }[]) {
    const user = entry?.user;
    if (!user || typeof user !== 'object') continue;
    const file = [user.tokenFile, user['token-file']].find((f): f is string => typeof f === 'string' && f.trim() !== '');
    delete user.tokenFile;
    delete user['token-file'];
    if (typeof entry.name === 'string' && file) found.set(entry.name, path.resolve(dir, file.trim()));
  }
  return found;
}


/**
 * Describes why a file did not parse without echoing any of it: js-yaml's messages quote the
 * offending lines, which may hold a token. Only the position is kept.
 */
function parseProblem(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; mark?: { line?: number; column?: number } } | undefined;
  if (e?.name === 'YAMLException') {
    const line = typeof e.mark?.line === 'number' ? ` at line ${e.mark.line + 1}` : '';
    const column = typeof e.mark?.column === 'number' && line ? `, column ${e.mark.column + 1}` : '';
    return `is not valid YAML${line}${column}`;
  }
  // client-node's own validation ("clusters[0].cluster.server is missing") names fields, never values.
  if (typeof e?.message === 'string' && /^(clusters|users|contexts)\[\d+\]\.[\w.]+ is missing$/.test(e.message)) {
    return `is incomplete: ${e.message}`;
  }
  return 'is not a kubeconfig (expected a YAML mapping with clusters, users and contexts)';
}

function expandHome(p: string): string {
  if (p === '~' || p.startsWith(`~${path.sep}`) || p.startsWith('~/')) return path.join(os.homedir(), p.slice(1));
  return path.resolve(p);
}
