/**
 * One raw request, as a wire transcript would record it: status, the headers that matter, the
 * body (a watch's as its lines) and how the response ended. Over HTTP/2 (TLS, ALPN) or HTTP/1.1,
 * with or without a bearer token. For comparing the local API server with the real one.
 */
import * as http2 from 'node:http2';
import * as https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

export interface ProbeOptions {
  token?: string;
  http2: boolean;
  /** Give up reading after this long (a watch that should have ended); default 15 s. */
  maxMs?: number;
  method?: string;
  body?: unknown;
}

export interface ProbeResult {
  status: number;
  /** Lower-case header names; HTTP/2 pseudo-headers left out. */
  headers: Record<string, string>;
  text: string;
  /** Each non-empty line parsed as JSON (undefined where it is not JSON). */
  lines: unknown[];
  /** 'end': the server ended the body; 'reset': the stream or connection failed; 'timeout': still open after maxMs. */
  ended: 'end' | 'reset' | 'timeout';
  /** Milliseconds from the request to the end of the body. */
  durationMs: number;
  /** Milliseconds from the request to each chunk of the body, with its size. */
  chunks: { atMs: number; bytes: number }[];
  /** HTTP/2: the server's SETTINGS_MAX_CONCURRENT_STREAMS. */
  maxConcurrentStreams?: number;
}

export async function probe(server: string, caPem: string, path: string, o: ProbeOptions): Promise<ProbeResult> {
  return o.http2 ? probeH2(server, caPem, path, o) : probeH1(server, caPem, path, o);
}

/** Body chunks as they arrived. */
interface Arrived {
  data: Buffer;
  atMs: number;
}

function finish(status: number, headers: IncomingHttpHeaders | http2.IncomingHttpHeaders, arrived: Arrived[], ended: ProbeResult['ended'], started: number): ProbeResult {
  const text = Buffer.concat(arrived.map((a) => a.data)).toString('utf8');
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!k.startsWith(':') && v !== undefined) h[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  const lines = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return undefined;
      }
    });
  return { status, headers: h, text, lines, ended, durationMs: Date.now() - started, chunks: arrived.map((a) => ({ atMs: a.atMs, bytes: a.data.length })) };
}

function requestHeaders(o: ProbeOptions, data: Buffer | undefined): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json', 'user-agent': 'kube-watch-wire-probe' };
  if (o.token !== undefined) h.authorization = `Bearer ${o.token}`;
  if (data) {
    h['content-type'] = 'application/json';
    h['content-length'] = String(data.length);
  }
  return h;
}

function probeH1(server: string, caPem: string, path: string, o: ProbeOptions): Promise<ProbeResult> {
  const data = o.body === undefined ? undefined : Buffer.from(JSON.stringify(o.body));
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(path, server), { method: o.method ?? 'GET', ca: caPem, agent: false, headers: requestHeaders(o, data) }, (res) => {
      const chunks: Arrived[] = [];
      const timer = setTimeout(() => {
        res.destroy();
        resolve(finish(res.statusCode ?? 0, res.headers, chunks, 'timeout', started));
      }, o.maxMs ?? 15_000);
      res.on('data', (c: Buffer) => chunks.push({ data: c, atMs: Date.now() - started }));
      res.on('end', () => {
        clearTimeout(timer);
        resolve(finish(res.statusCode ?? 0, res.headers, chunks, 'end', started));
      });
      res.on('error', () => undefined);
      res.on('close', () => {
        clearTimeout(timer);
        if (!res.complete) resolve(finish(res.statusCode ?? 0, res.headers, chunks, 'reset', started));
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

function probeH2(server: string, caPem: string, path: string, o: ProbeOptions): Promise<ProbeResult> {
  const data = o.body === undefined ? undefined : Buffer.from(JSON.stringify(o.body));
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const session = http2.connect(server, { ca: caPem });
    session.on('error', reject);
    const req = session.request({ ':method': o.method ?? 'GET', ':path': path, ...requestHeaders(o, data) }, { endStream: !data });
    if (data) req.end(data);
    let status = 0;
    let headers: http2.IncomingHttpHeaders = {};
    const chunks: Arrived[] = [];
    let sawEnd = false;
    let settled = false;
    const timer = setTimeout(() => {
      done('timeout');
      req.close();
    }, o.maxMs ?? 15_000);
    const done = (ended: ProbeResult['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const r = finish(status, headers, chunks, ended, started);
      r.maxConcurrentStreams = session.remoteSettings.maxConcurrentStreams;
      session.close();
      resolve(r);
    };
    req.on('response', (h) => {
      headers = h;
      status = Number(h[':status']);
    });
    req.on('data', (c: Buffer) => chunks.push({ data: c, atMs: Date.now() - started }));
    req.on('end', () => (sawEnd = true));
    req.on('error', () => undefined);
    req.on('close', () => done(sawEnd && req.rstCode === http2.constants.NGHTTP2_NO_ERROR ? 'end' : 'reset'));
  });
}
