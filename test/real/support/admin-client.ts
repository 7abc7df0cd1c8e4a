/**
 * The tests' own client for setting the cluster up and reading it back: plain HTTPS/1.1 with a
 * bearer token (the admin's, by default), none of the code under test. Every call either
 * returns the parsed 2xx body or throws an ApiStatusError carrying the server's Status.
 */
import * as https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

/** A Kubernetes object as JSON. */
export interface KubeJson {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ListJson<T = KubeJson> {
  kind?: string;
  apiVersion?: string;
  metadata: { resourceVersion?: string; continue?: string };
  items: T[];
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A non-2xx answer: `code` is the HTTP status, `status` the Status body when there is one. */
export class ApiStatusError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly code: number,
    readonly text: string,
    readonly status: { reason?: string; message?: string; code?: number } | undefined,
  ) {
    super(`${method} ${path}: HTTP ${code} ${status?.reason ?? ''} ${status?.message ?? text.slice(0, 200)}`.replace(/\s+/g, ' ').trim());
    this.name = 'ApiStatusError';
  }
}

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

export class AdminClient {
  private readonly agent: https.Agent;

  constructor(
    /** e.g. https://127.0.0.1:PORT */
    readonly server: string,
    readonly caPem: string,
    private readonly token: string,
  ) {
    this.agent = new https.Agent({ keepAlive: true, ca: caPem, maxSockets: 8 });
  }

  /** The same server as another user (for checks made as that user). */
  as(token: string): AdminClient {
    return new AdminClient(this.server, this.caPem, token);
  }

  /** One request; resolves with any status (never throws for a non-2xx answer). */
  raw(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<RawResponse> {
    const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        new URL(path, this.server),
        {
          method,
          agent: this.agent,
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            ...(data ? { 'Content-Type': contentType, 'Content-Length': String(data.length) } : {}),
          },
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 60 s`)));
      req.on('error', reject);
      req.end(data);
    });
  }

  async request<T = KubeJson>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const res = await this.raw(method, path, body, contentType);
    let parsed: unknown;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status < 200 || res.status > 299) {
      const status = parsed && typeof parsed === 'object' && (parsed as { kind?: string }).kind === 'Status' ? (parsed as ApiStatusError['status']) : undefined;
      throw new ApiStatusError(method, path, res.status, res.text, status);
    }
    return parsed as T;
  }

  get<T = KubeJson>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T = KubeJson>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  put<T = KubeJson>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PUT', path, body);
  }

  patch<T = KubeJson>(path: string, body: unknown, type: PatchType = 'merge'): Promise<T> {
    return this.request<T>('PATCH', path, body, PATCH_CONTENT_TYPES[type]);
  }

  delete<T = KubeJson>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('DELETE', path, body);
  }

  /** A whole collection (one unpaginated LIST). */
  list<T = KubeJson>(path: string): Promise<ListJson<T>> {
    return this.request<ListJson<T>>('GET', path);
  }

  /** Closes the keep-alive connections. */
  dispose(): void {
    this.agent.destroy();
  }
}

/** Whether `err` is the server saying `code` (404 on a delete of something already gone, 409 on a create). */
export function isStatus(err: unknown, code: number): boolean {
  return err instanceof ApiStatusError && err.code === code;
}
