/**
 * Reads and writes one user's `auth-provider` config in the kubeconfig file that defined it, as
 * kubectl's persister does (clientcmd ModifyConfig: the stanza goes back to its file of origin,
 * under `FILE.lock`), but touching nothing else: only the given keys' values change, the rest of
 * the file (comments, order, quoting, other users) stays byte for byte where the keys exist.
 */
import { open, readFile, unlink, writeFile } from 'node:fs/promises';
import { CST, Composer, Parser, isMap, isScalar, isSeq, parse, type Document } from 'yaml';
import type { Clock } from '../../../base/clock';
import { sleep } from '../../../base/sleep';

/** How long a write waits for another writer's lock (kubectl holds it for milliseconds). */
const LOCK_WAIT_MS = 2_000;
const LOCK_RETRY_MS = 50;

/** The user's auth-provider config as the file holds it now; undefined when the file, the user or its auth provider is gone. */
export async function readAuthProviderConfig(file: string, userName: string): Promise<Record<string, string> | undefined> {
  let doc: unknown;
  try {
    doc = parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  const users = (doc as { users?: unknown } | null)?.users;
  if (!Array.isArray(users)) return undefined;
  const entry = users.find((u: { name?: unknown } | null) => u?.name === userName) as { user?: { 'auth-provider'?: { config?: unknown } } } | undefined;
  const config = entry?.user?.['auth-provider']?.config;
  if (!config || typeof config !== 'object') return undefined;
  return Object.fromEntries(Object.entries(config).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/**
 * Sets `updates` in the auth-provider config of `userName` in `file`, if the file is writable
 * and still defines that user with an auth provider named `providerName`. Resolves with whether
 * the file was written; never throws (a read-only kubeconfig keeps the tokens in memory only).
 */
export async function writeAuthProviderConfig(file: string, userName: string, providerName: string, updates: Record<string, string>, clock: Clock): Promise<boolean> {
  const unlock = await lock(file, clock);
  if (!unlock) return false;
  try {
    const text = await readFile(file, 'utf8');
    const next = withUpdates(text, userName, providerName, updates);
    if (next === undefined) return false;
    if (next !== text) await writeFile(file, next, 'utf8');
    return true;
  } catch {
    return false;
  } finally {
    await unlock();
  }
}

/** The text with the updates applied, checked by parsing it back; undefined when the user is not there or the edit cannot be verified. */
export function withUpdates(text: string, userName: string, providerName: string, updates: Record<string, string>): string | undefined {
  const tokens = [...new Parser().parse(text)];
  const docs = [...new Composer({ keepSourceTokens: true }).compose(tokens)];
  if (docs.length !== 1 || docs[0].errors.length > 0) return undefined;
  const doc = docs[0] as Document.Parsed;
  const users = doc.get('users', true);
  if (!isSeq(users)) return undefined;
  const entry = users.items.find((u) => isMap(u) && u.get('name') === userName);
  if (!isMap(entry) || entry.getIn(['user', 'auth-provider', 'name']) !== providerName || !isMap(entry.getIn(['user', 'auth-provider', 'config'], true))) return undefined;
  const path = (key: string) => ['user', 'auth-provider', 'config', key];
  const inPlace = Object.keys(updates).every((key) => {
    const node = entry.getIn(path(key), true);
    return isScalar(node) && node.srcToken !== undefined;
  });
  let next: string;
  if (inPlace) {
    // Only the scalars' source tokens change: every other byte of the file stays as it was.
    for (const [key, value] of Object.entries(updates)) {
      const node = entry.getIn(path(key), true);
      if (isScalar(node) && node.srcToken) CST.setScalarValue(node.srcToken, value);
    }
    next = tokens.map((t) => CST.stringify(t)).join('');
  } else {
    // A key the file lacks: a YAML round trip (comments kept; sequences unindented, as kubectl writes them).
    for (const [key, value] of Object.entries(updates)) entry.setIn(path(key), value);
    next = doc.toString({ indentSeq: false, lineWidth: 0 });
  }
  let check: unknown;
  try {
    check = parse(next);
  } catch {
    return undefined;
  }
  const written = ((check as { users?: { name?: string; user?: { 'auth-provider'?: { config?: Record<string, unknown> } } }[] }).users ?? []).find((u) => u?.name === userName)?.user?.['auth-provider']?.config;
  return written && Object.entries(updates).every(([k, v]) => written[k] === v) ? next : undefined;
}

/** Takes kubectl's lock (`FILE.lock`, created exclusively), waiting a little for another writer; undefined when it cannot. */
async function lock(file: string, clock: Clock): Promise<(() => Promise<void>) | undefined> {
  const lockFile = `${file}.lock`;
  const never = new AbortController().signal;
  for (let waited = 0; ; waited += LOCK_RETRY_MS) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.close();
      return () => unlink(lockFile).catch(() => undefined);
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST' || waited >= LOCK_WAIT_MS) return undefined;
      await sleep(clock, LOCK_RETRY_MS, never);
    }
  }
}
