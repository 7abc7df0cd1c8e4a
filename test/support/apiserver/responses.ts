/**
 * Writing complete (non-streaming) responses with the headers kube-apiserver sends:
 * Audit-Id, Cache-Control: no-cache, private, Content-Type and Content-Length (Date comes from Node).
 * JSON is compact unless the client asked for `pretty` or is curl, like the real server, and ends
 * with a newline either way (Go's JSON encoder writes one; seen on 1.34.9, test/real/wire-parity).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

export function baseHeaders(contentType: string): Record<string, string> {
  return { 'Audit-Id': randomUUID(), 'Cache-Control': 'no-cache, private', 'Content-Type': contentType };
}

function wantsPretty(req: IncomingMessage, query: Record<string, string>): boolean {
  const p = query.pretty;
  if (p !== undefined) return p === '1' || p === 'true';
  return /^(curl|wget)/i.test(req.headers['user-agent'] ?? '');
}

/** Sends `body` as JSON with `status`; extra headers are merged in. */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  query: Record<string, string>,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  const text = wantsPretty(req, query) ? `${JSON.stringify(body, null, 2)}\n` : `${JSON.stringify(body)}\n`;
  const data = Buffer.from(text);
  res.writeHead(status, { ...baseHeaders('application/json'), ...extra, 'Content-Length': String(data.length) });
  res.end(data);
}

/** The Go mux's plain-text 404 for paths outside any known group (transcript 08). */
export function sendPlainNotFound(res: ServerResponse): void {
  const data = Buffer.from('404 page not found\n');
  res.writeHead(404, {
    ...baseHeaders('text/plain; charset=utf-8'),
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': String(data.length),
  });
  res.end(data);
}

export function sendPlain(res: ServerResponse, status: number, text: string): void {
  const data = Buffer.from(text);
  res.writeHead(status, { ...baseHeaders('text/plain; charset=utf-8'), 'X-Content-Type-Options': 'nosniff', 'Content-Length': String(data.length) });
  res.end(data);
}
