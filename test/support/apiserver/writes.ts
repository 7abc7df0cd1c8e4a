/**
 * The write side of the local API server: every request that is not a GET reaches `serve`,
 * which reads the body (up to the real server's 3 MiB) and hands it to the write handlers in
 * turn until one answers; none answering is 405, as for a method the resource does not allow.
 *
 * Handlers are small and separate: object-writes.ts (create, update, the three patches, apply,
 * dryRun) is built in; others (subresources such as /scale, deletes, evictions, access reviews)
 * are added with `use`, tried before the built-in ones.
 *
 * Invariant: unlike GETs, a write is answered after its body arrived, so `record.status` is
 * set when the answer is sent, not when `handle` returns.
 */
import type * as http from 'node:http';
import type { Route } from './router';
import type { ObjectStore } from './store';
import type { ResourceRegistry } from './resources';
import type { RequestRecord, ResourceDefinition } from './types';
import type { StatusJson } from './status';
import { methodNotAllowed, objectNotFound, resourceNotFound } from './status';
import { sendJson, sendPlainNotFound } from './responses';
import { tooLarge } from './write-status';
import { objectWrites } from './object-writes';
import { readBody } from './request-body';

/** The largest body the real server accepts (3 MiB). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** What the write handlers use of the server. */
export interface WriteServerParts {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  /** Randomness for uids. */
  readonly random: () => number;
  /** True while a type's version is not served (`stopServing`). */
  isUnserved(def: ResourceDefinition): boolean;
}

/** One write request, its body read. */
export interface WriteCall {
  readonly req: http.IncomingMessage;
  readonly route: Extract<Route, { kind: 'resource' }>;
  /** The type the path names, when the server serves it. */
  readonly def: ResourceDefinition | undefined;
  readonly method: string;
  readonly query: Record<string, string>;
  readonly body: Buffer;
  /** The request's Content-Type without parameters, lower case. */
  readonly contentType: string;
  /** The field manager: `fieldManager`, else the User-Agent's first word, else `unknown` (as the real server). */
  readonly manager: string;
  /** Answers with JSON (once). */
  reply(status: number, body: unknown): void;
}

/** Answers the call and returns true, or returns false to let the next handler try. */
export type WriteHandler = (call: WriteCall, server: WriteServerParts) => boolean;

export class WriteRoutes {
  private readonly added: WriteHandler[] = [];
  private readonly builtIn: WriteHandler[] = [objectWrites];

  constructor(private readonly server: WriteServerParts) {}

  /** Adds a handler, tried before the built-in ones and those added earlier. */
  use(handler: WriteHandler): void {
    this.added.unshift(handler);
  }

  /** Reads the body, then answers through the first handler that takes the call. */
  serve(req: http.IncomingMessage, res: http.ServerResponse, route: Extract<Route, { kind: 'resource' }>, record: RequestRecord): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const answer = (status: number, body: unknown) => {
      if (res.headersSent || res.destroyed) return;
      sendJson(req, res, record.query, status, body);
      record.status = status;
    };
    req.on('data', (c: Buffer) => {
      if (refused) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        answer(413, tooLarge());
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (refused) return;
      try {
        const body = Buffer.concat(chunks, size);
        record.body = body.toString('utf8');
        record.contentType = String(req.headers['content-type'] ?? '');
        this.dispatch(req, res, route, record, body, answer);
      } catch (err) {
        answer(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${(err as Error).message}`, reason: 'InternalError', code: 500 });
      }
    });
  }

  private dispatch(req: http.IncomingMessage, res: http.ServerResponse, route: Extract<Route, { kind: 'resource' }>, record: RequestRecord, body: Buffer, answer: (status: number, body: unknown) => void): void {
    const def = this.server.registry.byPath(route.group, route.version, route.resource);
    const method = req.method ?? 'POST';
    // Objects (POST, PUT) come as JSON, YAML or protobuf, all read into JSON here; patches keep their type.
    const read = readBody(method, String(req.headers['content-type'] ?? ''), body);
    if (!read.ok) return answer(read.status.code, read.status);
    const call: WriteCall = {
      req,
      route,
      def: def && !this.server.isUnserved(def) ? def : undefined,
      method,
      query: record.query,
      body: read.body,
      contentType: read.contentType,
      manager: record.query.fieldManager || managerFromUserAgent(req.headers['user-agent']),
      reply: answer,
    };
    for (const handler of [...this.added, ...this.builtIn]) if (handler(call, this.server)) return;
    if (!this.server.registry.hasGroupVersion(route.group, route.version) || (def && this.server.isUnserved(def))) {
      sendPlainNotFound(res);
      record.status = 404;
      return;
    }
    if (!def) return answer(404, resourceNotFound());
    answer(405, methodNotAllowed());
  }
}

/** `kubectl/v1.34.1 (linux/amd64) kubernetes/abc` -> `kubectl`; none -> `unknown`. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const first = (userAgent ?? '').trim().split(/[\s/]/)[0];
  return first || 'unknown';
}

/** The 404 of a missing object of `def`. */
export function notFound(def: ResourceDefinition, name: string): StatusJson {
  return objectNotFound(def.group, def.resource, name);
}
