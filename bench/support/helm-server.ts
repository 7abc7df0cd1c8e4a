/**
 * B14's API server: `releases` Helm releases x `revisions` revisions, each stored as helm's Secret
 * driver stores it (`sh.helm.release.v1.NAME.vN`, type `helm.sh/release.v1`, labels `name`,
 * `owner=helm`, `status`, `version`, `modifiedAt`) with a `payloadBytes` release payload.
 *
 * Nothing is held per object but its index: an object's metadata is made when it is served, and
 * every payload is one shared string (helm's base64 of gzip, as random-looking bytes made once),
 * so 5,000 x 100 KiB (about 680 MB as a JSON list) cost this process one payload. A full list is
 * never held either: `fullListBytes()` adds up each object's JSON size (its metadata's JSON plus
 * the payload's length, which needs no escaping), and a full list asked for is written object by
 * object, page by page.
 *
 * Serves, on loopback HTTPS: LIST of secrets/configmaps (`labelSelector=owner=helm`, `limit` and
 * `continue`), as a PartialObjectMetadataList when the Accept header asks for one (client-go's
 * metadata informer), else whole objects; GET of one Secret; WATCH held open and silent; a
 * streaming list (`sendInitialEvents=true`) refused with 422 as a 1.26 server does. Counts the
 * bytes of every response body it writes, per bearer token.
 */
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface HelmServerOptions {
  releases: number;
  revisions: number;
  /** The size of helm's encoded release (its storage string); the Secret holds its base64. */
  payloadBytes: number;
  /** Namespaces the releases are spread over. */
  namespaces: number;
}

const RV = '100000';
const CREATED = '2026-11-01T00:00:00Z';
const MODIFIED_AT = String(Date.parse(CREATED) / 1000);

export class HelmServer {
  private readonly server: https.Server;
  private readonly sockets = new Set<Socket>();
  /** Object indexes in etcd's key order (namespace, then name). */
  private readonly order: number[];
  /** The Secret's `data.release`: the base64 of helm's storage string (itself base64 of gzip). */
  private readonly payload: string;
  /** Response body bytes written, per bearer token. */
  readonly bytesByToken = new Map<string, number>();
  readonly paths: string[] = [];
  port = 0;

  constructor(
    private readonly o: HelmServerOptions,
    tls: { cert: string; key: string },
  ) {
    const helmString = randomBytes(Math.ceil((o.payloadBytes * 3) / 4)).toString('base64').slice(0, o.payloadBytes);
    this.payload = Buffer.from(helmString, 'utf8').toString('base64');
    const count = o.releases * o.revisions;
    this.order = Array.from({ length: count }, (_, i) => i).sort((a, b) => {
      const ka = `${this.namespaceOf(a)}/${this.objectName(a)}`;
      const kb = `${this.namespaceOf(b)}/${this.objectName(b)}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    this.server = https.createServer({ cert: tls.cert, key: tls.key, keepAlive: true }, (req, res) => this.handle(req, res));
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get objectCount(): number {
    return this.order.length;
  }

  /** The bytes of one unpaginated `kubectl get secrets -l owner=helm -A -o json`-style list (application/json): what a client reading payloads downloads. */
  fullListBytes(): number {
    const head = `{"kind":"SecretList","apiVersion":"v1","metadata":{"resourceVersion":"${RV}"},"items":[`;
    let total = head.length + 2; // `]}`
    for (let k = 0; k < this.order.length; k++) total += this.secretJsonLength(this.order[k]) + (k > 0 ? 1 : 0);
    return total;
  }

  /** One Secret's JSON length: its JSON with an empty payload, plus the payload (base64 needs no escaping). */
  secretJsonLength(i: number): number {
    return JSON.stringify(this.secret(i, '')).length + this.payload.length;
  }

  /** The index of the object `namespace/name`, or -1. */
  indexOf(namespace: string, name: string): number {
    return this.order.find((k) => this.namespaceOf(k) === namespace && this.objectName(k) === name) ?? -1;
  }

  private namespaceOf(i: number): string {
    return `team-${Math.floor(i / this.o.revisions) % this.o.namespaces}`;
  }

  private objectName(i: number): string {
    return `sh.helm.release.v1.release-${Math.floor(i / this.o.revisions)}.v${(i % this.o.revisions) + 1}`;
  }

  private metadata(i: number): Record<string, unknown> {
    const release = `release-${Math.floor(i / this.o.revisions)}`;
    const revision = (i % this.o.revisions) + 1;
    return {
      name: this.objectName(i),
      namespace: this.namespaceOf(i),
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      creationTimestamp: CREATED,
      labels: { modifiedAt: MODIFIED_AT, name: release, owner: 'helm', status: revision === this.o.revisions ? 'deployed' : 'superseded', version: String(revision) },
    };
  }

  private secret(i: number, payload: string): Record<string, unknown> {
    return { kind: 'Secret', apiVersion: 'v1', metadata: this.metadata(i), type: 'helm.sh/release.v1', data: { release: payload } };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'https://bench');
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    this.paths.push(`${req.method} ${url.pathname}${url.search}`);
    const send = (status: number, body: string) => {
      this.count(token, body.length);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    const q = url.searchParams;
    const collection = /^\/api\/v1\/(secrets|configmaps)$/.exec(url.pathname)?.[1];
    const one = /^\/api\/v1\/namespaces\/([^/]+)\/secrets\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'GET' || (!collection && !one)) return send(404, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: `${url.pathname} is not served by the B14 server` }));
    if (q.get('watch') === 'true' || q.get('watch') === '1') {
      if (q.get('sendInitialEvents') === 'true') return send(422, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Invalid', code: 422, message: 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled' }));
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      return; // silent until the client or the server ends it
    }
    if (one) {
      const i = this.indexOf(one[1], one[2]);
      if (i < 0) return send(404, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: `secrets "${one[2]}" not found` }));
      return send(200, JSON.stringify(this.secret(i, this.payload)));
    }
    const metadataOnly = /as=PartialObjectMetadataList/.test(String(req.headers.accept ?? ''));
    const items = collection === 'secrets' && q.get('labelSelector') === 'owner=helm' ? this.order : [];
    const limit = Number(q.get('limit')) || items.length;
    const from = Number(q.get('continue') || 0);
    const page = items.slice(from, from + limit);
    const next = from + limit < items.length ? String(from + limit) : undefined;
    const listMeta = JSON.stringify({ resourceVersion: RV, ...(next ? { continue: next, remainingItemCount: items.length - from - limit } : {}) });
    const head = metadataOnly ? `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":${listMeta},"items":[` : `{"kind":"${collection === 'secrets' ? 'Secret' : 'ConfigMap'}List","apiVersion":"v1","metadata":${listMeta},"items":[`;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    let written = head.length + 2;
    res.write(head);
    page.forEach((i, k) => {
      const item = (k > 0 ? ',' : '') + JSON.stringify(metadataOnly ? { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: this.metadata(i) } : this.secret(i, this.payload));
      written += item.length;
      res.write(item);
    });
    res.end(']}');
    this.count(token, written);
  }

  private count(token: string, bytes: number): void {
    this.bytesByToken.set(token, (this.bytesByToken.get(token) ?? 0) + bytes);
  }
}
