import * as net from 'node:net';

/** Where a forward listens, once bound. */
export interface BoundListener {
  readonly server: net.Server;
  readonly address: string;
  readonly port: number;
  /** The port asked for was taken, so another was chosen (the user is told which). */
  readonly chosenInstead: boolean;
}

/**
 * Binds the forward's local port: `port` when it is free, else (unless `exact`) one the system
 * chooses; `exact` makes a port in use an error. Connections wait paused until the forward takes
 * them. Rejects with a one-line message; nothing stays bound on failure.
 */
export async function bindLocal(address: string, port: number, exact: boolean, onConnection: (socket: net.Socket) => void): Promise<BoundListener> {
  const attempt = (p: number) =>
    new Promise<net.Server>((resolve, reject) => {
      // Half-open allowed: a client that is done sending still gets the pod's answer (v4 port-forward cannot pass the FIN on).
      const server = net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, onConnection);
      server.once('error', (err) => {
        server.close();
        reject(err);
      });
      server.listen({ host: address, port: p, exclusive: true }, () => resolve(server));
    });
  let server: net.Server;
  let chosenInstead = false;
  try {
    server = await attempt(port);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const where = `${address}:${port}`;
    if (exact || port === 0 || (code !== 'EADDRINUSE' && code !== 'EACCES')) {
      if (code === 'EADDRINUSE') throw new Error(`local port ${where} is in use: choose another port (or leave it empty to take a free one)`);
      if (code === 'EACCES') throw new Error(`local port ${where} needs privileges this process does not have: choose a port above 1023`);
      if (code === 'EADDRNOTAVAIL') throw new Error(`the address ${address} is not one of this machine's (setting kubeWatch.portForward.address)`);
      throw new Error(`cannot listen on ${where}: ${(err as Error).message}`);
    }
    server = await attempt(0);
    chosenInstead = true;
  }
  server.unref();
  const bound = server.address() as net.AddressInfo;
  return { server, address, port: bound.port, chosenInstead };
}
