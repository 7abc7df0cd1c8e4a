import assert from 'node:assert/strict';
import { FakeApiServer } from '../support/apiserver';
import * as status from '../support/apiserver/status';
import { useControlPlane, type ControlPlane } from './support';
import { probe, type ProbeResult } from './support/wire-probe';

/**
 * The local API server (test/support/apiserver, as 1.34) against the real kube-apiserver 1.34.9:
 * the same requests, over HTTP/2 and HTTP/1.1 at once, on the same objects, must get the same answers on
 * the wire (status, the headers a client reads, Status bodies, watch events and bookmarks, how a
 * stream ends). Where they differ, the real one is right. Identifiers that cannot match (uids,
 * resourceVersions, times, continue tokens, the managedFields of objects the local server was
 * handed directly) are replaced by placeholders before comparing.
 */

const NS = 'parity';

/** One request: a path whose `{rv}`, `{old}`, `{prev}` and `{continue}` each server fills in with its own values. */
interface Case {
  title: string;
  path: string;
  /** Default: the admin's token. `none`: no Authorization header; a string: that token. */
  token?: 'none' | string;
  /** How long a watch may stay open (it should end by itself before). */
  maxMs?: number;
}

/** Each server's own values for the placeholders of a path. */
interface Values {
  rv: string;
  old?: string;
  prev?: string;
  continue?: string;
}

const HEADERS_COMPARED = ['content-type', 'cache-control', 'x-content-type-options', 'transfer-encoding', 'retry-after'];

/** What must be equal: everything a client can rely on, with identifiers replaced. */
function comparable(r: ProbeResult): unknown {
  const headers: Record<string, string> = {};
  for (const h of HEADERS_COMPARED) if (r.headers[h] !== undefined) headers[h] = r.headers[h];
  const json = r.lines.length > 0 && r.lines.every((l) => l !== undefined);
  return {
    status: r.status,
    ended: r.ended,
    headers,
    body: json ? r.lines.map((l) => normalize(l)) : r.text.replace(/\d+/g, '<n>'),
    // Go's encoder ends every JSON document with a newline.
    trailingNewline: r.text.endsWith('\n'),
    // A server that waits (for a future resourceVersion, for a watch's timeout) before it answers.
    tookSeconds: r.durationMs >= 1500,
  };
}

const PLACEHOLDER_KEYS = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'continue']);

function normalize(value: unknown, key = ''): unknown {
  if (key === 'managedFields') return '<managedFields>';
  if (PLACEHOLDER_KEYS.has(key) && value !== undefined) return `<${key}>`;
  if (typeof value === 'string') return value.replace(/\d+/g, '<n>');
  if (Array.isArray(value)) return value.map((v) => normalize(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]));
  return value;
}

function fill(path: string, v: Values): string {
  return path
    .replace('{rv}', v.rv)
    .replace('{old}', v.old ?? '')
    .replace('{prev}', v.prev ?? '')
    .replace('{continue}', encodeURIComponent(v.continue ?? ''));
}

interface Servers {
  real: { plane: ControlPlane; values: () => Promise<Values> };
  local: { server: FakeApiServer; values: () => Values };
}

/** Runs `c` against both servers, over HTTP/2 and HTTP/1.1, all at once. */
async function compareBoth(c: Case, servers: Servers): Promise<void> {
  await Promise.all([true, false].map((http2) => compare(c, http2, servers)));
}

/** Runs `c` against both servers at once and compares; `values` gives each server's placeholders. */
async function compare(c: Case, http2: boolean, { real, local }: Servers): Promise<void> {
  const admin = real.plane.users.admin.token;
  const token = c.token === undefined ? admin : c.token === 'none' ? undefined : c.token;
  const opts = { token, http2, maxMs: c.maxMs ?? 10_000 };
  const [r, l] = await Promise.all([
    real.values().then((v) => probe(real.plane.url, real.plane.caPem, fill(c.path, v), opts)),
    probe(local.server.url, local.server.caPem, fill(c.path, local.values()), opts),
  ]);
  assert.deepEqual(comparable(l), comparable(r), `${http2 ? 'HTTP/2' : 'HTTP/1.1'}: the local server (actual) differs from the real one (expected) on ${c.path}:\nreal:  ${r.text.slice(0, 600)}\nlocal: ${l.text.slice(0, 600)}`);
  if (http2) assert.equal(l.maxConcurrentStreams, r.maxConcurrentStreams, 'SETTINGS_MAX_CONCURRENT_STREAMS');
}

/** The same two ConfigMaps, with the same data, on both servers. */
async function seed(plane: ControlPlane, fake: FakeApiServer): Promise<void> {
  await plane.setup.namespace(NS);
  for (const name of ['cm-1', 'cm-2']) {
    await plane.setup.configMaps(NS).create(name, { k: 'v' });
    fake.create('configmaps', { metadata: { name, namespace: NS }, data: { k: 'v' } });
  }
}

const LIST = `/api/v1/namespaces/${NS}/configmaps`;
const WATCH_LIST = `${LIST}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;

describe('[real] wire parity: the local API server answers as the real one (watch cache on)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  let fake: FakeApiServer;
  before(async function () {
    fake = await FakeApiServer.start({ version: '1.34', http2: true, token: plane().users.admin.token });
    await seed(plane(), fake);
  });
  after(async () => fake?.close());

  const cases: Case[] = [
    { title: 'a missing object: 404 NotFound naming it', path: `${LIST}/missing` },
    { title: 'an unknown resource in a known group: 404 Status "the server could not find the requested resource"', path: `/api/v1/namespaces/${NS}/widgets` },
    { title: 'an unknown resource, watched: the same 404', path: `/api/v1/namespaces/${NS}/widgets?watch=1` },
    { title: 'an unknown group: the plain-text "404 page not found"', path: `/apis/nosuch.example.com/v1/namespaces/${NS}/widgets?watch=1` },
    { title: 'a token the server does not know: 401 Unauthorized', path: LIST, token: 'not-a-token' },
    { title: 'no token: 403 for system:anonymous, in RBAC\'s words', path: LIST, token: 'none' },
    { title: 'no token on a non-resource path: 403', path: '/api', token: 'none' },
    { title: 'a paginated LIST: the first page, its continue token and remainingItemCount', path: `${LIST}?limit=1` },
    { title: 'WatchList: the objects, the initial-events-end bookmark, and the end at timeoutSeconds', path: `${WATCH_LIST}&timeoutSeconds=2`, maxMs: 8000 },
    { title: 'a quiet 3 s watch from the current resourceVersion: no bookmark, ended at its timeout', path: `${LIST}?watch=1&allowWatchBookmarks=true&resourceVersion={rv}&timeoutSeconds=3`, maxMs: 8000 },
    { title: 'WatchList without resourceVersionMatch: 422', path: `${LIST}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true` },
    { title: 'resourceVersionMatch on a watch without sendInitialEvents: 422', path: `${LIST}?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1` },
    { title: 'sendInitialEvents on a LIST: 422 naming both fields', path: `${LIST}?sendInitialEvents=true&resourceVersionMatch=NotOlderThan` },
    { title: 'WatchList from a future resourceVersion: after about 3 s an ERROR 504 "Too large resource version"', path: `${WATCH_LIST}&resourceVersion=99999999&timeoutSeconds=10`, maxMs: 8000 },
    { title: 'a LIST at a future resourceVersion: after about 3 s a 504 with Retry-After', path: `${LIST}?resourceVersion=99999999&resourceVersionMatch=NotOlderThan`, maxMs: 8000 },
    { title: 'a resourceVersion that is not a number: 500 from its parser', path: `${LIST}?watch=1&resourceVersion=abc` },
  ];
  for (const c of cases) {
    it(c.title, async () => {
      await compareBoth(c, { real: { plane: plane(), values: async () => ({ rv: String(await plane().revision()) }) }, local: { server: fake, values: () => ({ rv: fake.resourceVersion }) } });
    });
  }

  it('RBAC\'s 403 for a user without a RoleBinding: the local server\'s Status for it (what refusal faults should carry) is the real one', async () => {
    const p = plane();
    const checks: [string, string, string | undefined, (ns: string) => string][] = [
      ['list', '', undefined, (ns) => `/api/v1/namespaces/${ns}/configmaps`],
      ['watch', '', undefined, (ns) => `/api/v1/namespaces/${ns}/configmaps?watch=1&timeoutSeconds=1`],
      ['get', '', 'cm-1', (ns) => `/api/v1/namespaces/${ns}/configmaps/cm-1`],
      ['list', 'apps', undefined, (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`],
    ];
    for (const [verb, group, name, path] of checks) {
      const real = await probe(p.url, p.caPem, path(NS), { token: p.users.limited.token, http2: true });
      assert.equal(real.status, 403);
      const resource = group === 'apps' ? 'deployments' : 'configmaps';
      assert.deepEqual(real.lines[0], status.forbiddenResource(verb, group, resource, NS, name, 'limited'), `${verb} ${path(NS)}`);
    }
  });
});

describe('[real] wire parity: the local API server answers as the real one (watch cache off, etcd compacted)', function () {
  this.timeout(120_000);
  const plane = useControlPlane({ watchCache: false });
  let fake: FakeApiServer;
  const real: Partial<Values> = {};
  const local: Partial<Values> = {};
  before(async function () {
    const p = plane();
    fake = await FakeApiServer.start({ version: '1.34', http2: true, token: p.users.admin.token, watchCache: false });
    await seed(p, fake);
    real.continue = (await p.admin.list(`${LIST}?limit=1`)).metadata.continue;
    local.continue = (JSON.parse((await probe(fake.url, fake.caPem, `${LIST}?limit=1`, { token: p.users.admin.token, http2: false })).text) as { metadata: { continue: string } }).metadata.continue;
    real.old = String(await p.revision());
    local.old = fake.resourceVersion;
    // Two updates; etcd is then compacted at the second, so a watch from just below it meets its
    // event without the previous value.
    let updatedAt = 0;
    for (const [name, v] of [['cm-1', 'a'], ['cm-2', 'b']]) {
      updatedAt = Number((await p.setup.configMaps(NS).update(name, v)).metadata.resourceVersion);
      fake.update('configmaps', { metadata: { name, namespace: NS }, data: { k: 'v', v } });
    }
    // Compacted at the second update exactly (the apiserver's own lease writes may come after it).
    real.prev = String(updatedAt - 1);
    local.prev = String(Number(fake.resourceVersion) - 1);
    await p.compact(updatedAt);
    fake.compact();
  });
  after(async () => fake?.close());

  const cases: Case[] = [
    { title: 'a watch from a compacted resourceVersion: ERROR 410 "too old"', path: `${LIST}?watch=1&allowWatchBookmarks=true&resourceVersion={old}&timeoutSeconds=2`, maxMs: 8000 },
    {
      title: 'a watch from just below the compacted revision: ERROR 500 "PrevKv=nil" for the change at that revision',
      path: `${LIST}?watch=1&allowWatchBookmarks=true&resourceVersion={prev}&timeoutSeconds=2`,
      maxMs: 8000,
    },
    { title: 'a LIST at a compacted resourceVersion (Exact): 410', path: `${LIST}?resourceVersion={old}&resourceVersionMatch=Exact` },
    { title: 'a paginated LIST at a compacted resourceVersion: 410', path: `${LIST}?resourceVersion={old}&limit=1` },
    { title: 'a continue token from before the compaction: 410 with a fresh token', path: `${LIST}?limit=1&continue={continue}` },
    { title: 'WatchList from a compacted resourceVersion: the current objects and the bookmark', path: `${WATCH_LIST}&resourceVersion={old}&timeoutSeconds=2`, maxMs: 8000 },
    { title: 'a quiet watch without the watch cache: no bookmark, ended at its timeout', path: `${LIST}?watch=1&allowWatchBookmarks=true&resourceVersion={rv}&timeoutSeconds=2`, maxMs: 8000 },
  ];
  for (const c of cases) {
    it(c.title, async () => {
      await compareBoth(c, {
        real: { plane: plane(), values: async () => ({ ...real, rv: String(await plane().revision()) }) },
        local: { server: fake, values: () => ({ ...local, rv: fake.resourceVersion }) },
      });
    });
  }
});
