import type { Socket } from 'node:net';

const HTTP_REQUEST = /^[A-Z]{3,10} \S+ HTTP\/1\.[01]\r?\n/;

/**
 * Refuses a local connection no pod could take. A TCP connection cannot carry a reason, but an
 * HTTP client can: when what the client sent is an HTTP/1 request (a browser, curl), it gets a
 * `503 Service Unavailable` whose body is `message`; anything else is reset.
 */
export function refuseWithMessage(socket: Socket, received: Buffer, message: string): void {
  if (socket.destroyed) return;
  if (!HTTP_REQUEST.test(received.subarray(0, 2048).toString('latin1'))) return void socket.destroy();
  const body = Buffer.from(message);
  socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${message}`);
  socket.once('finish', () => socket.destroy());
}

/** Why a pod's port did not take a connection: `connection refused by pod web-1 port 80`, or the kubelet's words when it is something else. */
export function refusalReason(pod: { readonly name: string; readonly port: number }, error: string): string {
  if (/connection refused/i.test(error)) return `connection refused by pod ${pod.name} port ${pod.port}`;
  return `connections to pod ${pod.name} port ${pod.port} fail: ${error.trim()}`;
}
