import * as net from 'node:net';

/**
 * A TCP relay on loopback in front of a server, standing in for a middlebox: it can freeze a
 * whole connection (stop forwarding both ways without closing anything, as a dead NAT entry or
 * a suspended peer does) and kill them. Invariant: every accepted connection is tracked until
 * both of its sockets closed; `close()` destroys them all.
 */
export class TcpRelay {
  private readonly links = new Set<RelayLink>();
  private frozenForNew = false;
  /** Connections accepted so far. */
  accepted = 0;
  /** Bytes clients sent on frozen connections (a request written on a dead socket). */
  clientBytesWhileFrozen = 0;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpRelay> {
    let relay: TcpRelay | undefined;
    const server = net.createServer((client) => relay?.accept(client, targetPort, targetHost));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    relay = new TcpRelay(server, (server.address() as net.AddressInfo).port);
    return relay;
  }

  /** Replaces the target's URL by the relay's in a kubeconfig (or any text). */
  rewrite(text: string, targetUrl: string): string {
    const u = new URL(targetUrl);
    return text.split(targetUrl).join(`${u.protocol}//127.0.0.1:${this.port}`);
  }

  /** Live connections. */
  get count(): number {
    return this.links.size;
  }

  /** Stops forwarding on every live connection (and, with `newOnes`, on connections accepted later). */
  freezeAll(newOnes = false): void {
    for (const l of this.links) l.frozen = true;
    this.frozenForNew = newOnes;
  }

  /** Stops forwarding on connections accepted from now on only; live ones go on (a fresh connection that cannot get through). */
  freezeNew(): void {
    this.frozenForNew = true;
  }

  /** Forwards again on every connection, delivering what was held back. */
  unfreezeAll(): void {
    this.frozenForNew = false;
    for (const l of this.links) l.thaw();
  }

  /** Destroys every live connection (both sides see the close). */
  killAll(): void {
    for (const l of this.links) l.kill();
  }

  async close(): Promise<void> {
    this.killAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, port: number, host: string): void {
    this.accepted++;
    const upstream = net.connect(port, host);
    const link = new RelayLink(client, upstream, this.frozenForNew, (n) => (this.clientBytesWhileFrozen += n));
    this.links.add(link);
    link.onClosed = () => this.links.delete(link);
  }
}

class RelayLink {
  onClosed: () => void = () => undefined;
  private readonly held: [net.Socket, Buffer][] = [];
  private closedSides = 0;

  constructor(
    private readonly client: net.Socket,
    private readonly upstream: net.Socket,
    public frozen: boolean,
    private readonly onClientBytesWhileFrozen: (n: number) => void,
  ) {
    this.pipe(client, upstream);
    this.pipe(upstream, client);
  }

  thaw(): void {
    this.frozen = false;
    for (const [to, chunk] of this.held.splice(0)) if (!to.destroyed) to.write(chunk);
  }

  kill(): void {
    this.client.destroy();
    this.upstream.destroy();
  }

  private pipe(from: net.Socket, to: net.Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (this.frozen) {
        this.held.push([to, chunk]);
        if (from === this.client) this.onClientBytesWhileFrozen(chunk.length);
      }
      else if (!to.destroyed) to.write(chunk);
    });
    // A frozen link does not pass a close on either: the peer must find out by itself.
    from.on('end', () => {
      if (!this.frozen) to.end();
    });
    from.on('error', () => undefined);
    from.on('close', () => {
      if (!this.frozen) to.destroy();
      if (++this.closedSides === 2) this.onClosed();
    });
  }
}
