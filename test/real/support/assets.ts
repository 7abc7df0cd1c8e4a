/**
 * Where the control plane's binaries come from, in envtest's layout (a directory holding
 * `kube-apiserver` and `etcd`):
 * 1. `KUBEBUILDER_ASSETS`, as controller-runtime's envtest and `setup-envtest use 1.34.x -p path` set it;
 * 2. else the compressed binaries in `shared/envtest/1.34.9-linux-amd64/` beside the repository
 *    (`../shared/...`) or beside one of its parent directories (a git worktree under `wt/` finds
 *    its main checkout's), unpacked once into `.cache/envtest/1.34.9/` and checked against
 *    `SHA256SUMS.unpacked`.
 * Nothing here starts a process.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The Kubernetes version of the bundled binaries. */
export const ENVTEST_VERSION = '1.34.9';
const BUNDLE = `${ENVTEST_VERSION}-linux-amd64`;
const BINARIES = ['kube-apiserver', 'etcd'] as const;

/** The repository's root (this file is test/real/support/assets.ts). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

export interface Assets {
  /** The directory holding `kube-apiserver` and `etcd`, executable. */
  dir: string;
  /** Where they came from, for the log line: `KUBEBUILDER_ASSETS=…` or the bundle unpacked. */
  source: string;
}

/** What was looked at when no binaries were found: the one line a tier prints. */
export class AssetsMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssetsMissingError';
  }
}

/**
 * Finds (and unpacks, the first time) the binaries. Throws AssetsMissingError with a one-line
 * reason when there are none; any other error (a checksum mismatch, `xz` missing) is thrown as is.
 */
export function findAssets(): Assets {
  const fromEnv = process.env.KUBEBUILDER_ASSETS;
  if (fromEnv) {
    const missing = BINARIES.filter((b) => !isExecutable(path.join(fromEnv, b)));
    if (missing.length > 0) throw new AssetsMissingError(`KUBEBUILDER_ASSETS=${fromEnv} lacks ${missing.join(' and ')}`);
    return { dir: fromEnv, source: `KUBEBUILDER_ASSETS=${fromEnv}` };
  }
  const bundle = findBundle();
  if (!bundle) {
    throw new AssetsMissingError(
      `no kube-apiserver/etcd: set KUBEBUILDER_ASSETS (setup-envtest use 1.34.x -p path) or provide ../shared/envtest/${BUNDLE}/ beside the repository`,
    );
  }
  const dir = path.join(REPO_ROOT, '.cache', 'envtest', ENVTEST_VERSION);
  unpackOnce(bundle, dir);
  return { dir, source: `${path.relative(REPO_ROOT, bundle) || bundle} (unpacked into ${path.relative(REPO_ROOT, dir)})` };
}

/** `shared/envtest/<bundle>` beside the repository or one of its parents, if any. */
function findBundle(): string | undefined {
  let dir = REPO_ROOT;
  for (;;) {
    const candidate = path.join(path.dirname(dir), 'shared', 'envtest', BUNDLE);
    if (fs.existsSync(path.join(candidate, 'SHA256SUMS.unpacked'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Unpacks `<name>.xz` for each binary into `dir` unless a stamp says it was done for the same
 * checksums; verifies every unpacked file. Writes through a temporary name, so a run that is
 * interrupted never leaves a half-written binary under the final name.
 */
function unpackOnce(bundle: string, dir: string): void {
  const sums = parseSums(fs.readFileSync(path.join(bundle, 'SHA256SUMS.unpacked'), 'utf8'));
  const stampPath = path.join(dir, '.unpacked');
  const stamp = JSON.stringify(Object.fromEntries(BINARIES.map((b) => [b, sums.get(b)])));
  const present = BINARIES.every((b) => isExecutable(path.join(dir, b)));
  if (present && fs.existsSync(stampPath) && fs.readFileSync(stampPath, 'utf8') === stamp) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const b of BINARIES) {
    const want = sums.get(b);
    if (!want) throw new Error(`${bundle}/SHA256SUMS.unpacked has no line for ${b}`);
    const target = path.join(dir, b);
    const tmp = `${target}.${process.pid}.tmp`;
    const out = fs.openSync(tmp, 'w', 0o755);
    try {
      const r = spawnSync('xz', ['-dc', path.join(bundle, `${b}.xz`)], { stdio: ['ignore', out, 'pipe'] });
      if (r.error) throw new Error(`cannot run xz to unpack ${b}: ${r.error.message}`);
      if (r.status !== 0) throw new Error(`xz -dc ${b}.xz failed: ${r.stderr.toString().trim()}`);
    } finally {
      fs.closeSync(out);
    }
    const got = sha256(tmp);
    if (got !== want) {
      fs.rmSync(tmp, { force: true });
      throw new Error(`${b} unpacked from ${bundle} has SHA-256 ${got}, SHA256SUMS.unpacked says ${want}`);
    }
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, target);
  }
  fs.writeFileSync(stampPath, stamp);
}

function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64})\s+\*?(\S+)\s*$/.exec(line.trim());
    if (m) sums.set(m[2], m[1]);
  }
  return sums;
}

function sha256(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
