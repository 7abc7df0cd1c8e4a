import * as net from 'node:net';

/**
 * `n` distinct loopback ports that were free a moment ago: each found by listening on port 0,
 * all held at once (so they differ) and then released. Another process may take one before the
 * control plane binds it; the caller retries with fresh ports when a bind fails.
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
  }
}

/** Whether a start failed because a port was taken meanwhile (the race `freePorts` warns of). */
export function isPortTaken(log: string): boolean {
  return /address already in use|bind: address/i.test(log);
}
