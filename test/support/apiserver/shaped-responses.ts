/**
 * Responses shaped the way proxies, aggregated API servers and broken middleboxes send them
 * (faults `stalledBody` and `listShape`): bodies that stop half-way and never end, lists with
 * `items: null` or without a resourceVersion.
 */
import type { ServerResponse } from 'node:http';
import { baseHeaders } from './responses';
import { faultStatus } from './status';
import type { Fault } from './types';

/**
 * Headers with `code`, then the first `bytes` bytes of `body` as JSON (default: half of it),
 * chunked, and then nothing: the response never ends (F43). For an error code without a body of
 * its own, a Status is sent.
 */
export function sendStalled(res: ServerResponse, fault: Extract<Fault, { type: 'stalledBody' }>, body?: unknown): void {
  const json = body ?? faultStatus(fault.code, fault.code >= 500 ? 'InternalError' : 'BadRequest', 'a body that never ends');
  const data = Buffer.from(JSON.stringify(json));
  res.writeHead(fault.code, baseHeaders('application/json'));
  res.write(data.subarray(0, Math.min(data.length, fault.bytes ?? Math.floor(data.length / 2))));
}

/** A list body reshaped by a `listShape` fault (F48). */
export function reshapeList(body: unknown, fault: Extract<Fault, { type: 'listShape' }>): unknown {
  const list = { ...(body as Record<string, unknown>) };
  if (fault.itemsNull) list.items = null;
  if (fault.noResourceVersion) {
    const { resourceVersion: _dropped, ...metadata } = (list.metadata ?? {}) as Record<string, unknown>;
    list.metadata = metadata;
  }
  return list;
}
