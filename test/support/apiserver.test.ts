import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { FakeApiServer, decodeContinue, encodeContinue, type FakeApiServerOptions, type WatchEventJson } from './apiserver';
import { until } from './until';

// ---------------------------------------------------------------- helpers

const TS = 10; // ms per server second

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // The body is arbitrary JSON whose shape each test asserts on.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

interface ReqOpts {
  token?: string | null;
  method?: string;
}

function requestOptions(server: FakeApiServer, opts: ReqOpts = {}): https.RequestOptions {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? 'test-token' : opts.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return { method: opts.method ?? 'GET', headers, ca: server.caPem, agent: false };
}

function transport(server: FakeApiServer) {
  return server.url.startsWith('https:') ? https : http;
}

/** One request with its own connection; resolves with the whole body. */
function call(server: FakeApiServer, path: string, opts: ReqOpts = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = transport(server).request(server.url + path, requestOptions(server, opts), (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A watch request that collects lines as they arrive. */
class Watch {
  readonly lines: string[] = [];
  readonly status: Promise<number>;
  /** Settles when the response ends ('end') or fails ('error: CODE'). */
  readonly done: Promise<string>;
  private readonly req: http.ClientRequest;
  private buf = '';

  constructor(server: FakeApiServer, path: string, opts: ReqOpts = {}) {
    let setStatus!: (n: number) => void;
    let setDone!: (s: string) => void;
    this.status = new Promise((r) => (setStatus = r));
    this.done = new Promise((r) => (setDone = r));
    this.req = transport(server).request(server.url + path, requestOptions(server, opts), (res) => {
      setStatus(res.statusCode ?? 0);
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        this.buf += c;
        let i: number;
        while ((i = this.buf.indexOf('\n')) >= 0) {
          this.lines.push(this.buf.slice(0, i));
          this.buf = this.buf.slice(i + 1);
        }
      });
      res.on('end', () => setDone('end'));
      res.on('error', (e: NodeJS.ErrnoException) => setDone(`error: ${e.code ?? e.message}`));
    });
    this.req.on('error', (e: NodeJS.ErrnoException) => {
      setStatus(0);
      setDone(`error: ${e.code ?? e.message}`);
    });
    this.req.end();
  }

  events(): WatchEventJson[] {
    return this.lines.map((l) => JSON.parse(l) as WatchEventJson);
  }

  summary(): string[] {
    return this.events().map((e) => {
      const m = e.object.metadata as { name?: string; resourceVersion?: string } | undefined;
      return e.type === 'ERROR' ? `ERROR ${String(e.object.code)}` : `${e.type} ${m?.name ?? ''}@${m?.resourceVersion ?? ''}`;
    });
  }

  abort(): void {
    this.req.destroy();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CM = '/api/v1/namespaces/default/configmaps';

function seed(server: FakeApiServer, n: number, namespace = 'default'): void {
  for (let i = 0; i < n; i++) server.create('configmaps', { metadata: { name: `cm-${i}`, namespace, labels: { idx: String(i) } }, data: { k: `v${i}` } });
}

// ---------------------------------------------------------------- tests

describe('fake API server', function () {
  this.timeout(5000);
  let server: FakeApiServer;
  const servers: FakeApiServer[] = [];

  async function start(opts: FakeApiServerOptions = {}): Promise<FakeApiServer> {
    const s = await FakeApiServer.start({ timeScale: TS, ...opts });
    servers.push(s);
    return s;
  }

  beforeEach(async () => {
    server = await start();
  });

  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });

  describe('objects and list', () => {
    it('fills server metadata and shares one resourceVersion counter across resources', () => {
      const rv0 = Number(server.resourceVersion);
      const cm = server.create('configmaps', { metadata: { name: 'a' }, data: { x: '1' } });
      const dep = server.create('deployments.apps', { metadata: { name: 'd', namespace: 'prod' }, spec: { replicas: 1 } });
      assert.equal(cm.metadata.namespace, 'default');
      assert.match(cm.metadata.uid ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.match(String(cm.metadata.creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.deepEqual(cm.metadata.managedFields, [
        { manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: cm.metadata.creationTimestamp, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } } },
      ]);
      assert.equal(cm.metadata.resourceVersion, String(rv0 + 1));
      assert.equal(dep.metadata.resourceVersion, String(rv0 + 2));
      assert.equal(dep.apiVersion, 'apps/v1');
      const upd = server.update('configmaps', { metadata: { name: 'a' }, data: { x: '2' } });
      assert.equal(upd.metadata.uid, cm.metadata.uid);
      assert.equal(upd.metadata.resourceVersion, String(rv0 + 3));
      const del = server.delete('configmaps', 'default', 'a');
      assert.equal(del?.metadata.resourceVersion, String(rv0 + 4));
      assert.equal(server.get('configmaps', 'default', 'a'), undefined);
      assert.deepEqual(server.list('deployments.apps').map((o) => o.metadata.name), ['d']);
      assert.equal(server.resourceVersion, String(rv0 + 4));
    });

    it('paginates with limit/continue over a consistent snapshot, like transcript 01', async () => {
      seed(server, 5);
      const listRv = server.resourceVersion;
      const p1 = await call(server, `${CM}?limit=2`);
      assert.equal(p1.status, 200);
      assert.equal(p1.headers['content-type'], 'application/json');
      assert.equal(p1.json.kind, 'ConfigMapList');
      assert.equal(p1.json.apiVersion, 'v1');
      assert.equal(p1.json.metadata.resourceVersion, listRv);
      assert.equal(p1.json.metadata.remainingItemCount, 3);
      assert.deepEqual(decodeContinue(p1.json.metadata.continue), { rv: Number(listRv), start: 'cm-1\u0000' });
      assert.deepEqual(p1.json.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-0', 'cm-1']);
      assert.equal(p1.json.items[0].kind, undefined, 'list items carry no kind');
      assert.equal(p1.json.items[0].apiVersion, undefined, 'list items carry no apiVersion');

      // Changes after the first page do not show up in later pages.
      server.update('configmaps', { metadata: { name: 'cm-2' }, data: { k: 'changed' } });
      server.delete('configmaps', 'default', 'cm-3');
      server.create('configmaps', { metadata: { name: 'cm-9' } });
      const p2 = await call(server, `${CM}?limit=2&continue=${p1.json.metadata.continue}`);
      assert.equal(p2.json.metadata.resourceVersion, listRv);
      assert.equal(p2.json.metadata.remainingItemCount, 1);
      assert.deepEqual(p2.json.items.map((i: { metadata: { name: string }; data: { k: string } }) => `${i.metadata.name}=${i.data.k}`), ['cm-2=v2', 'cm-3=v3']);
      const p3 = await call(server, `${CM}?limit=2&continue=${p2.json.metadata.continue}`);
      assert.deepEqual(p3.json.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-4']);
      assert.equal(p3.json.metadata.continue, undefined);
      assert.equal(p3.json.metadata.remainingItemCount, undefined);
    });

    it('encodes continue tokens byte-for-byte like the real server', () => {
      assert.equal(encodeContinue({ rv: 210, start: 'cm-1\u0000' }), 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjEwLCJzdGFydCI6ImNtLTFcdTAwMDAifQ');
      assert.equal(encodeContinue({ rv: -1, start: 'cm-1\u0000' }), 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiY20tMVx1MDAwMCJ9');
    });

    it('lists across namespaces with namespace/name keys and honours label and field selectors', async () => {
      seed(server, 2, 'b');
      seed(server, 2, 'a');
      const all = await call(server, '/api/v1/configmaps?limit=3');
      assert.deepEqual(all.json.items.map((i: { metadata: { namespace: string; name: string } }) => `${i.metadata.namespace}/${i.metadata.name}`), ['a/cm-0', 'a/cm-1', 'b/cm-0']);
      assert.equal(decodeContinue(all.json.metadata.continue).start, 'b/cm-0\u0000');
      const sel = await call(server, `/api/v1/configmaps?labelSelector=${encodeURIComponent('idx in (1,7),!missing')}&fieldSelector=metadata.namespace!=a`);
      assert.deepEqual(sel.json.items.map((i: { metadata: { namespace: string; name: string } }) => `${i.metadata.namespace}/${i.metadata.name}`), ['b/cm-1']);
      const ne = await call(server, `/api/v1/namespaces/a/configmaps?labelSelector=idx!=0`);
      assert.deepEqual(ne.json.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['cm-1']);
      const bad = await call(server, `${CM}?labelSelector=${encodeURIComponent('a b')}`);
      assert.equal(bad.status, 400);
      assert.equal(bad.json.reason, 'BadRequest');
      const badField = await call(server, `${CM}?fieldSelector=spec.foo=1`);
      assert.equal(badField.status, 400);
      assert.equal(badField.json.message, 'field label not supported: spec.foo');
    });

    it('answers a stale continue token after compact() with HTTP 410 and a fresh token (transcript 05)', async () => {
      seed(server, 5);
      const p1 = await call(server, `${CM}?limit=2`);
      server.update('configmaps', { metadata: { name: 'cm-3' }, data: { k: 'new' } });
      server.compact();
      const stale = await call(server, `${CM}?limit=2&continue=${p1.json.metadata.continue}`);
      assert.equal(stale.status, 410);
      assert.deepEqual(stale.json, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: { continue: encodeContinue({ rv: -1, start: 'cm-1\u0000' }) },
        status: 'Failure',
        message:
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        reason: 'Expired',
        code: 410,
      });
      // The fresh token continues (inconsistently) from the current state.
      const rest = await call(server, `${CM}?limit=10&continue=${stale.json.metadata.continue}`);
      assert.equal(rest.status, 200);
      assert.equal(rest.json.metadata.resourceVersion, server.resourceVersion);
      assert.deepEqual(rest.json.items.map((i: { metadata: { name: string }; data: { k: string } }) => `${i.metadata.name}=${i.data.k}`), ['cm-2=v2', 'cm-3=new', 'cm-4=v4']);
    });

    it('serves resourceVersion=N with limit as the snapshot at N, 410 once compacted (transcript 11)', async () => {
      seed(server, 3);
      const rv = server.resourceVersion;
      server.delete('configmaps', 'default', 'cm-0');
      const snap = await call(server, `${CM}?resourceVersion=${rv}&limit=10`);
      assert.equal(snap.json.metadata.resourceVersion, rv);
      assert.equal(snap.json.items.length, 3);
      const notOlder = await call(server, `${CM}?resourceVersion=${rv}`);
      assert.equal(notOlder.json.metadata.resourceVersion, server.resourceVersion, 'without limit: current state');
      assert.equal(notOlder.json.items.length, 2);
      const rv0 = await call(server, `${CM}?resourceVersion=0&limit=1`);
      assert.equal(rv0.json.items.length, 2, 'resourceVersion=0 is served whole from the watch cache');
      server.compact();
      const old = await call(server, `${CM}?resourceVersion=${rv}&limit=10`);
      assert.equal(old.status, 410);
      assert.deepEqual(old.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'The resourceVersion for the provided list is too old.', reason: 'Expired', code: 410 });
    });

    it('serves a single object with kind and apiVersion, 404 Status when missing', async () => {
      seed(server, 1);
      const one = await call(server, `${CM}/cm-0`);
      assert.equal(one.json.kind, 'ConfigMap');
      assert.equal(one.json.metadata.name, 'cm-0');
      const missing = await call(server, `${CM}/nope`);
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.json.details, { name: 'nope', kind: 'configmaps' });
      assert.equal(missing.json.message, 'configmaps "nope" not found');
    });
  });

  describe('watch', () => {
    it('replays history after the resourceVersion, then streams live events (transcript 02)', async () => {
      seed(server, 2);
      const from = server.resourceVersion;
      server.create('configmaps', { metadata: { name: 'cm-w1' }, data: { k: 'a' } });
      server.update('configmaps', { metadata: { name: 'cm-0' }, data: { k: 'patched' } });
      const w = new Watch(server, `${CM}?watch=1&resourceVersion=${from}&timeoutSeconds=100`);
      assert.equal(await w.status, 200);
      await until(() => w.lines.length === 2, 'replayed events');
      server.delete('configmaps', 'default', 'cm-w1');
      server.create('configmaps', { metadata: { name: 'other', namespace: 'elsewhere' } });
      await until(() => w.lines.length === 3, 'live event');
      const f = Number(from);
      assert.deepEqual(w.summary(), [`ADDED cm-w1@${f + 1}`, `MODIFIED cm-0@${f + 2}`, `DELETED cm-w1@${f + 3}`]);
      const [added, , deleted] = w.events();
      assert.equal(added.object.kind, 'ConfigMap');
      assert.equal(added.object.apiVersion, 'v1');
      assert.deepEqual(deleted.object.data, { k: 'a' }, 'DELETED carries the last state');
      assert.equal(server.openWatches('configmaps'), 1);
      w.abort();
      await until(() => server.openWatches() === 0, 'the watch to close');
    });

    it('starts with synthetic ADDED events for resourceVersion unset or 0', async () => {
      seed(server, 2);
      for (const q of ['', '&resourceVersion=0']) {
        const w = new Watch(server, `${CM}?watch=true&timeoutSeconds=1${q}`);
        assert.equal(await w.done, 'end');
        assert.deepEqual(w.summary(), ['ADDED cm-0@2', 'ADDED cm-1@3']);
      }
    });

    it('turns label-selector transitions into ADDED and DELETED', async () => {
      server.create('configmaps', { metadata: { name: 'x', labels: { app: 'a' } } });
      const w = new Watch(server, `${CM}?watch=1&labelSelector=app%3Da&timeoutSeconds=100`);
      await until(() => w.lines.length === 1, 'initial ADDED');
      server.update('configmaps', { metadata: { name: 'x', labels: { app: 'b' } } });
      server.update('configmaps', { metadata: { name: 'x', labels: { app: 'b' }, annotations: { n: '1' } } });
      server.update('configmaps', { metadata: { name: 'x', labels: { app: 'a' } } });
      await until(() => w.lines.length === 3, 'transition events');
      const rv = Number(server.resourceVersion);
      assert.deepEqual(w.summary(), [`ADDED x@${rv - 3}`, `DELETED x@${rv - 2}`, `ADDED x@${rv}`]);
      assert.deepEqual((w.events()[1].object.metadata as { labels: unknown }).labels, { app: 'a' }, 'DELETED shows the last matching state');
      w.abort();
    });

    it('sends one ERROR 410 event and ends for a resourceVersion older than the history (transcripts 09, 17)', async () => {
      seed(server, 3);
      const old = '2';
      server.compact();
      const w = new Watch(server, `${CM}?watch=1&resourceVersion=${old}&timeoutSeconds=100`);
      assert.equal(await w.status, 200);
      assert.equal(await w.done, 'end');
      assert.deepEqual(w.lines, [
        `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 2 (${server.resourceVersion})","reason":"Expired","code":410}}`,
      ]);
      // Watching from exactly the oldest kept revision is fine.
      const ok = new Watch(server, `${CM}?watch=1&resourceVersion=${server.resourceVersion}&timeoutSeconds=1`);
      assert.equal(await ok.done, 'end');
      assert.deepEqual(ok.lines, []);
    });

    it('drops the oldest events beyond historyLimit, like the watch-cache window (transcript 10)', async () => {
      const s = await start({ historyLimit: 3 });
      seed(s, 5); // rv 2..6; history keeps 4..6
      const w = new Watch(s, `${CM}?watch=1&resourceVersion=2&timeoutSeconds=1`);
      await w.done;
      assert.match(w.lines[0], /"message":"too old resource version: 2 \(3\)"/);
      const ok = new Watch(s, `${CM}?watch=1&resourceVersion=3&timeoutSeconds=1`);
      await ok.done;
      assert.deepEqual(ok.summary(), ['ADDED cm-2@4', 'ADDED cm-3@5', 'ADDED cm-4@6']);
    });

    it('uses the etcd message without the watch cache (transcripts 11, 18) and never sends bookmarks', async () => {
      const s = await start({ watchCache: false, bookmarkIntervalMs: 5 });
      seed(s, 2);
      s.compact();
      const w = new Watch(s, `${CM}?watch=1&resourceVersion=1&timeoutSeconds=1`);
      await w.done;
      assert.match(w.lines[0], /"message":"The resourceVersion for the provided watch is too old.","reason":"Expired","code":410/);
      const b = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=${s.resourceVersion}&timeoutSeconds=6`);
      await sleep(15);
      s.create('configmaps', { metadata: { name: 'z', namespace: 'other' } });
      assert.equal(await b.done, 'end');
      assert.deepEqual(b.lines, []);
    });

    it('without the watch cache, a watch from just below the compacted revision meets its change without the previous value: ERROR 500 PrevKv=nil for an update, the change itself for a create (modern/12, 1.34.9 in test/real/wire-parity)', async () => {
      const s = await start({ version: '1.34', watchCache: false });
      seed(s, 2);
      s.update('configmaps', { metadata: { name: 'cm-1', namespace: 'default' }, data: { v: 'changed' } });
      const updatedAt = Number(s.resourceVersion);
      s.compact();
      const below = new Watch(s, `${CM}?watch=1&resourceVersion=${updatedAt - 1}&timeoutSeconds=1`);
      await below.done;
      assert.equal(
        below.lines[0],
        `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: etcd event received with PrevKv=nil (key=\\"/registry/configmaps/default/cm-1\\", modRevision=${updatedAt}, type=PUT)","reason":"InternalError","details":{"causes":[{"message":"etcd event received with PrevKv=nil (key=\\"/registry/configmaps/default/cm-1\\", modRevision=${updatedAt}, type=PUT)"}]},"code":500}}`,
      );
      const further = new Watch(s, `${CM}?watch=1&resourceVersion=${updatedAt - 2}&timeoutSeconds=1`);
      await further.done;
      assert.match(further.lines[0], /too old/, 'further below: 410');
      s.create('configmaps', { metadata: { name: 'fresh', namespace: 'default' } });
      const createdAt = Number(s.resourceVersion);
      s.compact();
      const atCreate = new Watch(s, `${CM}?watch=1&resourceVersion=${createdAt - 1}&timeoutSeconds=1`);
      await atCreate.done;
      assert.deepEqual(atCreate.summary(), [`ADDED fresh@${createdAt}`], 'a create needs no previous value');
    });

    it('sends BOOKMARKs of the right shape only once the global resourceVersion moved past the start (transcript 16)', async () => {
      const s = await start({ bookmarkIntervalMs: 15 });
      seed(s, 1);
      const start0 = s.resourceVersion;
      const quiet = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=${start0}&timeoutSeconds=6`);
      const w = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=${start0}&timeoutSeconds=100`);
      const noAsk = new Watch(s, `${CM}?watch=1&resourceVersion=${start0}&timeoutSeconds=100`);
      assert.equal(await quiet.done, 'end');
      assert.deepEqual(quiet.lines, [], 'no bookmark while nothing newer than the start exists');
      s.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' } });
      await until(() => w.lines.length >= 2, 'two bookmarks');
      assert.equal(w.lines[0], `{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"${s.resourceVersion}","creationTimestamp":null}}}`);
      assert.deepEqual(noAsk.lines, [], 'no bookmarks without allowWatchBookmarks');
      w.abort();
      noAsk.abort();
    });

    it('sends a BOOKMARK about 2 server seconds before the deadline', async () => {
      // A server second of 100 ms: at 40 ms the bookmark and the end (2 server seconds apart) could
      // arrive in one turn of a busy machine (the stress tier saw it), and the order was lost.
      const s = await start({ timeScale: 100 });
      seed(s, 2);
      const t0 = Date.now();
      const w = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=2&timeoutSeconds=5`);
      let ended = -1;
      void w.done.then(() => (ended = Date.now() - t0));
      await until(() => w.lines.length === 2, 'the bookmark');
      const at = Date.now() - t0;
      assert.ok(at >= 290, `bookmark at ${at} ms, expected ~300 ms (3 of 5 server seconds)`);
      assert.equal(ended, -1, 'the bookmark comes before the end');
      assert.equal(await w.done, 'end');
      assert.deepEqual(w.summary(), ['ADDED cm-1@3', 'BOOKMARK @3']);
    });

    it('ends the response cleanly at timeoutSeconds, and within [min, 2*min) without it (transcripts 15, 17)', async () => {
      const t0 = Date.now();
      const w = new Watch(server, `${CM}?watch=1&resourceVersion=${server.resourceVersion}&timeoutSeconds=3`);
      assert.equal(await w.done, 'end');
      const took = Date.now() - t0;
      assert.ok(took >= 28 && took < 200, `ended after ${took} ms`);
      assert.deepEqual(w.lines, [], 'no final event');

      const s = await start({ minRequestTimeoutSeconds: 4, random: () => 0.5 });
      const t1 = Date.now();
      const d = new Watch(s, `${CM}?watch=1&resourceVersion=${s.resourceVersion}`);
      assert.equal(await d.done, 'end');
      const took2 = Date.now() - t1;
      assert.ok(took2 >= 58 && took2 < 200, `server-chosen timeout 6 server seconds, took ${took2} ms`);
    });

    it('flushes headers at once and writes one chunk per event and a terminating chunk (transcript 17, raw HTTP/1.1)', async () => {
      const s = await start({ tls: false });
      seed(s, 1);
      const port = Number(new URL(s.url).port);
      const sock = net.connect(port, '127.0.0.1');
      let wire = '';
      const firstData = new Promise<number>((r) => sock.once('data', () => r(Date.now())));
      sock.on('data', (c) => (wire += c.toString()));
      const t0 = Date.now();
      sock.write(`GET ${CM}?watch=1&timeoutSeconds=50 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-token\r\n\r\n`);
      const headersAt = await firstData;
      assert.ok(headersAt - t0 < 250, 'headers flushed long before the 500 ms timeout');
      await until(() => wire.endsWith('\r\n0\r\n\r\n'), 'the terminating chunk');
      const split = wire.indexOf('\r\n\r\n');
      const head = wire.slice(0, split);
      const body = wire.slice(split + 4);
      assert.match(head, /^HTTP\/1\.1 200 OK/);
      assert.match(head, /Transfer-Encoding: chunked/i);
      assert.match(head, /Content-Type: application\/json/i);
      const chunks = body.split('\r\n');
      const line = chunks[1];
      assert.equal(parseInt(chunks[0], 16), Buffer.byteLength(line), 'one event per chunk');
      assert.ok(line.endsWith('}\n'), 'newline-terminated');
      assert.ok(line.startsWith('{"type":"ADDED"'));
      await sleep(20);
      assert.equal(sock.destroyed, false, 'connection left open after the response (keep-alive)');
      sock.destroy();
    });

    it('watches a single object through its path', async () => {
      seed(server, 2);
      const w = new Watch(server, `${CM}/cm-1?watch=1&timeoutSeconds=1`);
      await w.done;
      assert.deepEqual(w.summary(), ['ADDED cm-1@3']);
    });

    it('refuses resourceVersionMatch on a watch with 422 (transcript 06)', async () => {
      const r = await call(server, `${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=5`);
      assert.equal(r.status, 422);
      assert.equal(r.json.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch');
      assert.equal(r.json.details.causes.length, 1);
      const r2 = await call(server, `${CM}?watch=1&resourceVersionMatch=NotOlderThan`);
      assert.equal(r2.json.details.causes.length, 2);
    });
  });

  describe('1.33 and 1.34 (fixtures/apiserver-modern)', () => {
    const WL = `${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;

    it('1.34 streams the list: ADDED in name order, then the annotated bookmark at the current RV, then live events (modern/01)', async () => {
      const s = await start({ version: '1.34' });
      seed(s, 3);
      s.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' } });
      const w = new Watch(s, `${WL}&timeoutSeconds=100`);
      await until(() => w.lines.length === 4, 'the initial events and the bookmark');
      assert.deepEqual(w.summary(), ['ADDED cm-0@2', 'ADDED cm-1@3', 'ADDED cm-2@4', 'BOOKMARK @5']);
      assert.equal(w.lines[3], '{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"5","annotations":{"k8s.io/initial-events-end":"true"}}}}');
      s.update('configmaps', { metadata: { name: 'cm-1', namespace: 'default' }, data: { k: 'patched' } });
      await until(() => w.lines.length === 5, 'the live event');
      assert.equal(w.summary()[4], 'MODIFIED cm-1@6');
      assert.equal(s.requests.at(-1)?.verb, 'watchlist');
      w.abort();
    });

    it('1.34: an old RV is fine (NotOlderThan), a future RV gets ERROR 504 after about 3 s, an empty namespace only the bookmark (modern/02, 07, 10)', async () => {
      const s = await start({ version: '1.34' });
      seed(s, 2);
      const old = new Watch(s, `${WL}&resourceVersion=1&timeoutSeconds=1`);
      assert.equal(await old.done, 'end');
      assert.deepEqual(old.summary(), ['ADDED cm-0@2', 'ADDED cm-1@3', 'BOOKMARK @3']);
      const t0 = Date.now();
      const future = new Watch(s, `${WL}&resourceVersion=999999&timeoutSeconds=10`);
      assert.equal(await future.status, 200);
      assert.ok(Date.now() - t0 >= 3 * TS - 2, 'the answer waits about 3 server seconds');
      assert.equal(await future.done, 'end');
      assert.equal(future.events()[0].type, 'ERROR');
      assert.equal(future.events()[0].object.message, 'Timeout: Too large resource version: 999999, current: 3');
      const empty = new Watch(s, `/api/v1/namespaces/empty/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1`);
      assert.equal(await empty.done, 'end');
      assert.deepEqual(empty.summary(), ['BOOKMARK @3']);
    });

    it('1.34 defaults an old-style watch from "" or 0 with bookmarks to a streaming list; not from an RV, not on 1.33 (modern/04, 11)', async () => {
      const s = await start({ version: '1.34' });
      seed(s, 2);
      for (const rv of ['', '&resourceVersion=0']) {
        const w = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true${rv}&timeoutSeconds=1`);
        assert.equal(await w.done, 'end');
        assert.deepEqual(w.summary(), ['ADDED cm-0@2', 'ADDED cm-1@3', 'BOOKMARK @3'], `rv "${rv}"`);
        assert.match(w.lines[2], /initial-events-end/);
      }
      const noBookmarks = new Watch(s, `${CM}?watch=1&timeoutSeconds=1`);
      assert.equal(await noBookmarks.done, 'end');
      assert.deepEqual(noBookmarks.summary(), ['ADDED cm-0@2', 'ADDED cm-1@3']);
      const fromRv = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=3&timeoutSeconds=1`);
      assert.equal(await fromRv.done, 'end');
      assert.ok(!fromRv.lines.some((l) => l.includes('initial-events-end')));
      const s33 = await start({ version: '1.33' });
      seed(s33, 1);
      const legacy = new Watch(s33, `${CM}?watch=1&allowWatchBookmarks=true&timeoutSeconds=1`);
      assert.equal(await legacy.done, 'end');
      assert.deepEqual(legacy.summary(), ['ADDED cm-0@2']);
    });

    it('1.33 refuses sendInitialEvents with 422 naming the gate; 1.34 refuses bad combinations (modern/03, 11)', async () => {
      const s33 = await start({ version: '1.33' });
      const r = await call(s33, `${WL}&timeoutSeconds=2`);
      assert.equal(r.status, 422);
      assert.equal(
        r.json.message,
        'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      );
      assert.deepEqual(r.json.details.causes.map((c: { field: string }) => c.field), ['sendInitialEvents']);
      const s34 = await start({ version: '1.34' });
      const noMatch = await call(s34, `${CM}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&timeoutSeconds=2`);
      assert.equal(noMatch.status, 422);
      assert.match(noMatch.json.message, /sendInitialEvents requires setting resourceVersionMatch to NotOlderThan$/);
      const matchOnly = await call(s34, `${CM}?watch=1&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=2`);
      assert.match(matchOnly.json.message, /resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided$/);
      const exact = await call(s34, `${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=73&allowWatchBookmarks=true`);
      assert.equal(exact.json.details.causes.length, 2);
    });

    it('1.34 bookmarks quiet watches (no creationTimestamp): the periodic one above every object\'s RV, then twice before the deadline at that RV (modern/06)', async () => {
      // A periodic bookmark every 2 server seconds, the deadline at 5; a server second of 100 ms,
      // so that a timer late on a busy machine does not reorder the bookmarks and the end.
      const s = await start({ version: '1.34', timeScale: 100, bookmarkIntervalMs: 200 });
      seed(s, 1);
      const w = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=${s.resourceVersion}&timeoutSeconds=5`);
      assert.equal(await w.done, 'end');
      assert.deepEqual(w.summary(), ['BOOKMARK @3', 'BOOKMARK @3', 'BOOKMARK @3'], 'three bookmarks although nothing changed, above every object\'s RV (2)');
      assert.equal(w.lines[0], '{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"3"}}}');
      s.create('configmaps', { metadata: { name: 'later', namespace: 'default' } });
      assert.equal(s.get('configmaps', 'default', 'later')?.metadata.resourceVersion, '4', 'later changes come after the bookmarks');
    });

    it('1.34: a short quiet watch that no periodic bookmark reached gets none, not even before its deadline (1.34.9, test/real/wire-parity)', async () => {
      const s = await start({ version: '1.34', timeScale: 20, bookmarkIntervalMs: 1000 });
      seed(s, 1);
      const w = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=${s.resourceVersion}&timeoutSeconds=5`);
      assert.equal(await w.done, 'end');
      assert.deepEqual(w.summary(), []);
    });

    it('1.34: a change anywhere in the resource before the deadline brings the bookmarks before it, at that change\'s RV', async () => {
      const s = await start({ version: '1.34', timeScale: 100, bookmarkIntervalMs: 10_000 });
      seed(s, 1);
      const w = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true&resourceVersion=${s.resourceVersion}&timeoutSeconds=5`);
      assert.equal(await w.status, 200);
      s.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'other' } });
      assert.equal(await w.done, 'end');
      assert.deepEqual(w.summary(), ['BOOKMARK @3', 'BOOKMARK @3']);
    });

    it('1.34 over HTTP/1.1 writes the initial burst in 2048-byte chunks: one event spans two chunks (modern/08)', async () => {
      const s = await start({ version: '1.34', tls: false });
      seed(s, 8);
      const port = Number(new URL(s.url).port);
      const sock = net.connect(port, '127.0.0.1');
      let wire = '';
      sock.on('data', (c) => (wire += c.toString()));
      sock.write(`GET ${WL}&timeoutSeconds=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-token\r\n\r\n`);
      await until(() => wire.endsWith('\r\n0\r\n\r\n'), 'the terminating chunk');
      const body = wire.slice(wire.indexOf('\r\n\r\n') + 4);
      const sizes: number[] = [];
      let rest = body;
      let data = '';
      for (;;) {
        const nl = rest.indexOf('\r\n');
        const size = parseInt(rest.slice(0, nl), 16);
        if (size === 0) break;
        sizes.push(size);
        data += rest.slice(nl + 2, nl + 2 + size);
        rest = rest.slice(nl + 2 + size + 2);
      }
      assert.ok(sizes.length >= 2 && sizes[0] === 2048, `2048-byte chunks (${sizes.join(', ')})`);
      assert.ok(!data.slice(0, 2048).endsWith('\n'), 'an event spans the first two chunks');
      const lines = data.trim().split('\n');
      assert.equal(lines.length, 9);
      assert.match(lines[8], /initial-events-end/);
      sock.destroy();
    });

    it('1.34 with the watch cache: compaction is invisible (200 for old RVs and continue tokens) until the apiserver restarts (modern/07)', async () => {
      const s = await start({ version: '1.34' });
      seed(s, 5);
      const page = await call(s, `${CM}?limit=2`);
      s.update('configmaps', { metadata: { name: 'cm-0', namespace: 'default' }, data: { k: 'x' } });
      s.compact();
      const cont = await call(s, `${CM}?limit=2&continue=${page.json.metadata.continue}`);
      assert.equal(cont.status, 200, 'the watch cache still serves the token');
      const old = new Watch(s, `${CM}?watch=1&resourceVersion=2&timeoutSeconds=1`);
      assert.equal(await old.done, 'end');
      assert.notEqual(old.events()[0].type, 'ERROR');
      s.restartWatchCache();
      const gone = await call(s, `${CM}?limit=2&continue=${page.json.metadata.continue}`);
      assert.equal(gone.status, 410);
      const expired = new Watch(s, `${CM}?watch=1&resourceVersion=2&timeoutSeconds=1`);
      assert.equal(await expired.done, 'end');
      assert.deepEqual(expired.summary(), ['ERROR 410']);
    });
  });

  describe('errors and discovery', () => {
    it('401 for a wrong token, 403 for no token (transcript 07)', async () => {
      const bad = await call(server, `${CM}?watch=1`, { token: 'wrong-token' });
      assert.equal(bad.status, 401);
      assert.deepEqual(bad.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      const anon = await call(server, CM, { token: null });
      assert.equal(anon.status, 403);
      assert.deepEqual(anon.json, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"',
        reason: 'Forbidden',
        details: { kind: 'configmaps' },
        code: 403,
      });
      const anonWatch = await call(server, '/apis/apps/v1/deployments?watch=1', { token: null });
      assert.equal(anonWatch.json.message, 'deployments.apps is forbidden: User "system:anonymous" cannot watch resource "deployments" in API group "apps" at the cluster scope');
      server.setToken('rotated');
      assert.equal((await call(server, CM)).status, 401);
      assert.equal((await call(server, CM, { token: 'rotated' })).status, 200);
    });

    it('404: JSON Status in a known group, plain text for an unknown group, JSON after removeResource (transcript 08)', async () => {
      const notFound = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };
      const core = await call(server, '/api/v1/namespaces/default/widgets?watch=1');
      assert.equal(core.status, 404);
      assert.deepEqual(core.json, notFound);
      const apps = await call(server, '/apis/apps/v1/namespaces/default/widgets?watch=1');
      assert.deepEqual(apps.json, notFound);
      const unknown = await call(server, '/apis/example.com/v1/namespaces/default/widgets?watch=1');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(unknown.text, '404 page not found\n');

      server.defineResource({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true });
      server.create('widgets.example.com', { metadata: { name: 'w' }, spec: { size: 1 } });
      const ok = await call(server, '/apis/example.com/v1/namespaces/default/widgets');
      assert.equal(ok.json.kind, 'WidgetList');
      assert.equal(ok.json.apiVersion, 'example.com/v1');

      const w = new Watch(server, `${CM}?watch=1&resourceVersion=${server.resourceVersion}&timeoutSeconds=100`);
      await w.status;
      const def = server.removeResource('', 'configmaps');
      assert.equal(def.kind, 'ConfigMap');
      assert.equal(await w.done, 'end', 'open watches of a removed type end');
      assert.deepEqual((await call(server, CM)).json, notFound);
      server.removeResource('example.com', 'widgets');
      assert.equal((await call(server, '/apis/example.com/v1/widgets')).text, '404 page not found\n');
      server.defineResource(def);
      assert.equal((await call(server, CM)).status, 200);
    });

    it('serves discovery documents', async () => {
      const api = await call(server, '/api');
      assert.equal(api.json.kind, 'APIVersions');
      assert.deepEqual(api.json.versions, ['v1']);
      const v1 = await call(server, '/api/v1');
      assert.equal(v1.json.kind, 'APIResourceList');
      assert.equal(v1.json.groupVersion, 'v1');
      const cm = v1.json.resources.find((r: { name: string }) => r.name === 'configmaps');
      assert.deepEqual(cm, { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['cm'] });
      const apis = await call(server, '/apis');
      assert.deepEqual(apis.json, {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [{ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } }],
      });
      const apps = await call(server, '/apis/apps/v1');
      assert.equal(apps.json.groupVersion, 'apps/v1');
      assert.equal(apps.json.resources[0].name, 'deployments');
      assert.equal((await call(server, '/apis/nope/v1')).status, 404);
      assert.deepEqual(server.requests.map((r) => r.verb), ['discovery', 'discovery', 'discovery', 'discovery', 'discovery']);
    });

    it('works with @kubernetes/client-node through kubeconfig()', async () => {
      seed(server, 2);
      const kc = new KubeConfig();
      kc.loadFromString(server.kubeconfig({ namespace: 'default' }));
      assert.equal(kc.getCurrentCluster()?.server, server.url);
      const api = kc.makeApiClient(CoreV1Api);
      const list = await api.listNamespacedConfigMap({ namespace: 'default' });
      assert.deepEqual(list.items.map((i) => i.metadata?.name), ['cm-0', 'cm-1']);
      assert.equal(list.metadata?.resourceVersion, server.resourceVersion);
      const bad = new KubeConfig();
      bad.loadFromString(server.kubeconfig({ token: 'nope' }));
      await assert.rejects(bad.makeApiClient(CoreV1Api).listNamespacedConfigMap({ namespace: 'default' }), (e: { code?: number }) => e.code === 401);
    });
  });

  describe('faults', () => {
    it('status: HTTP code, Status body, Retry-After; consumed per request', async () => {
      const h = server.injectFault({ type: 'status', code: 429, reason: 'TooManyRequests', message: 'slow down', retryAfterSeconds: 2 }, { verb: 'list', times: 2 });
      for (let i = 0; i < 2; i++) {
        const r = await call(server, CM);
        assert.equal(r.status, 429);
        assert.equal(r.headers['retry-after'], '2');
        assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'slow down', reason: 'TooManyRequests', details: { retryAfterSeconds: 2 }, code: 429 });
      }
      assert.equal(h.hits, 2);
      assert.equal((await call(server, CM)).status, 200);
      assert.deepEqual(server.requests.map((r) => `${r.verb} ${r.status} ${r.faulted ?? ''}`), ['list 429 status', 'list 429 status', 'list 200 ']);
      // verb and resource filters
      server.injectFault({ type: 'status', code: 503, reason: 'ServiceUnavailable', message: 'x' }, { verb: 'watch', resource: 'pods' });
      assert.equal((await call(server, CM)).status, 200);
      assert.equal((await call(server, '/api/v1/pods')).status, 200);
      assert.equal((await call(server, '/api/v1/pods?watch=1')).status, 503);
    });

    it('errorEvent: real events, then ERROR, then the end (mid-stream 410)', async () => {
      seed(server, 3);
      server.injectFault({ type: 'errorEvent', code: 410, reason: 'Expired', message: 'too old resource version: 1 (2)', afterEvents: 2 }, { verb: 'watch' });
      const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      assert.equal(await w.done, 'end');
      assert.deepEqual(w.summary(), ['ADDED cm-0@2', 'ADDED cm-1@3', 'ERROR 410']);
      assert.equal(w.lines[2], '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (2)","reason":"Expired","code":410}}');
      assert.equal(server.openWatches(), 0);
    });

    it('errorEvent waits for live events when the history has fewer', async () => {
      server.injectFault({ type: 'errorEvent', code: 500, reason: 'InternalError', message: 'boom', afterEvents: 1, retryAfterSeconds: 1 }, { verb: 'watch' });
      const w = new Watch(server, `${CM}?watch=1&resourceVersion=${server.resourceVersion}&timeoutSeconds=100`);
      await w.status;
      server.create('configmaps', { metadata: { name: 'late' } });
      assert.equal(await w.done, 'end');
      assert.deepEqual(w.summary(), ['ADDED late@2', 'ERROR 500']);
      assert.deepEqual(w.events()[1].object.details, { retryAfterSeconds: 1 });
    });

    it('reset: RST after N events on a watch, before answering a list', async () => {
      seed(server, 3);
      server.injectFault({ type: 'reset', afterEvents: 1 }, { verb: 'watch' });
      const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      assert.match(await w.done, /^error: (ECONNRESET|ERR_STREAM_PREMATURE_CLOSE)/);
      assert.deepEqual(w.summary(), ['ADDED cm-0@2']);
      server.injectFault({ type: 'reset' }, { verb: 'watch' });
      const w0 = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      assert.equal(await w0.status, 200, 'headers come first');
      assert.match(await w0.done, /^error: /);
      server.injectFault({ type: 'reset' }, { verb: 'list' });
      await assert.rejects(call(server, CM), (e: NodeJS.ErrnoException) => e.code === 'ECONNRESET');
      assert.equal(server.requests.at(-1)?.status, 0);
      await until(() => server.openWatches() === 0 && server.openSockets() === 0, 'everything closed');
    });

    it('silent: watch sends headers then nothing; list never answers; both stay open until the client gives up', async () => {
      seed(server, 1);
      server.injectFault({ type: 'silent' }, { verb: 'watch' });
      server.injectFault({ type: 'silent' }, { verb: 'list' });
      const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=1`);
      assert.equal(await w.status, 200);
      let answered = false;
      const l = new Watch(server, CM);
      void l.status.then(() => (answered = true));
      await sleep(40);
      assert.deepEqual(w.lines, [], 'nothing written, not even at timeoutSeconds');
      assert.equal(answered, false);
      assert.equal(server.openWatches(), 1);
      assert.equal(server.openSockets(), 2);
      w.abort();
      l.abort();
      await until(() => server.openWatches() === 0 && server.openSockets() === 0, 'sockets to close');
    });

    it('closeImmediately: 200 and an empty body', async () => {
      seed(server, 1);
      server.injectFault({ type: 'closeImmediately' }, { verb: 'watch', times: Infinity });
      for (let i = 0; i < 2; i++) {
        const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
        assert.equal(await w.status, 200);
        assert.equal(await w.done, 'end');
        assert.deepEqual(w.lines, []);
      }
      server.clearFaults();
      const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=1`);
      await w.done;
      assert.equal(w.lines.length, 1);
    });

    it('malformed: the raw line after N events, then the stream goes on', async () => {
      seed(server, 2);
      server.injectFault({ type: 'malformed', line: '{"type":"ADDED","object":', afterEvents: 1 }, { verb: 'watch' });
      const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      await until(() => w.lines.length === 3, 'three lines');
      assert.deepEqual(w.lines.map((l) => l.slice(0, 20)), ['{"type":"ADDED","obj', '{"type":"ADDED","obj', '{"type":"ADDED","obj']);
      assert.equal(w.lines[1], '{"type":"ADDED","object":');
      server.create('configmaps', { metadata: { name: 'live' } });
      await until(() => w.lines.length === 4, 'the live event');
      w.abort();
    });

    it('refuse: the connection closes before any response; watch-only faults never hit a list', async () => {
      server.injectFault({ type: 'errorEvent', code: 500, reason: 'InternalError', message: 'x' });
      server.injectFault({ type: 'refuse' }, { verb: 'list' });
      await assert.rejects(call(server, CM), (e: NodeJS.ErrnoException) => e.code === 'ECONNRESET' || e.message === 'socket hang up');
      assert.equal(server.requests[0].faulted, 'refuse');
      assert.equal((await call(server, CM)).status, 200, 'the errorEvent fault waits for a watch');
      const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      await w.done;
      assert.deepEqual(w.summary(), ['ERROR 500']);
    });

    it('dropWatches ends or resets every open watch', async () => {
      const a = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      const b = new Watch(server, '/api/v1/pods?watch=1&timeoutSeconds=100');
      await until(() => server.openWatches() === 2, 'two watches');
      assert.equal(server.openWatches('pods'), 1);
      assert.equal(server.dropWatches('end'), 2);
      assert.equal(await a.done, 'end');
      assert.equal(await b.done, 'end');
      const c = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      await until(() => server.openWatches() === 1, 'a watch');
      assert.equal(server.dropWatches('reset'), 1);
      assert.match(await c.done, /^error: /);
    });
  });

  describe('lifecycle', () => {
    it('goDown refuses connections, comeUp listens on the same port', async () => {
      seed(server, 1);
      const url = server.url;
      const w = new Watch(server, `${CM}?watch=1&timeoutSeconds=100`);
      await until(() => server.openWatches() === 1, 'the watch');
      await server.goDown();
      assert.match(await w.done, /^error: /);
      assert.equal(server.openWatches(), 0);
      assert.equal(server.openSockets(), 0);
      await assert.rejects(call(server, CM), (e: NodeJS.ErrnoException) => e.code === 'ECONNREFUSED');
      server.create('configmaps', { metadata: { name: 'while-down' } });
      await server.comeUp();
      assert.equal(server.url, url);
      const r = await call(server, CM);
      assert.equal(r.json.items.length, 2);
      await server.goDown();
      await server.comeUp({ compact: true });
      const old = new Watch(server, `${CM}?watch=1&resourceVersion=1&timeoutSeconds=100`);
      await old.done;
      assert.deepEqual(old.summary(), ['ERROR 410']);
    });

    it('counts open watches and sockets back to 0 after clients abort', async () => {
      const ws = [0, 1, 2].map(() => new Watch(server, `${CM}?watch=1&timeoutSeconds=1000`));
      await until(() => server.openWatches() === 3 && server.openSockets() === 3, 'three watches');
      for (const w of ws) w.abort();
      await until(() => server.openWatches() === 0 && server.openSockets() === 0, 'all closed');
    });

    it('close() ends everything so the process can exit', async () => {
      const s = await start({ tls: false });
      const w = new Watch(s, `${CM}?watch=1&allowWatchBookmarks=true`);
      await until(() => s.openWatches() === 1, 'the watch');
      await s.close();
      assert.match(await w.done, /^error: /);
      assert.equal(s.openSockets(), 0);
      await s.close();
    });

    it('writes a kubeconfig with certificate-authority-data and the token', () => {
      const text = server.kubeconfig({ context: 'c1', namespace: 'ns1' });
      assert.match(text, new RegExp(`server: "${server.url}"`));
      assert.match(text, new RegExp(`certificate-authority-data: "${Buffer.from(server.caPem).toString('base64')}"`));
      assert.match(text, /token: "test-token"/);
      assert.match(text, /current-context: "c1"/);
      const kc = new KubeConfig();
      kc.loadFromString(server.kubeconfig({ insecureSkipTlsVerify: true, token: 't2', user: 'u2' }));
      assert.equal(kc.getCurrentCluster()?.skipTLSVerify, true);
      assert.equal(kc.getCurrentUser()?.token, 't2');
    });
  });
});
