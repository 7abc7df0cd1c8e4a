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
  /** While cut: every new connection is reset at once (a pulled cable). */
  private refusing = false;
  /** Armed by `cutAfterServerBytes`: bytes from the server still allowed through before the cut. */
  private cutBudget: { bytes: number; done: () => void } | undefined;
  /** Connections accepted so far. */
  accepted = 0;
  /** Bytes clients sent on frozen connections (a request written on a dead socket). */
  clientBytesWhileFrozen = 0;
  /** Bytes forwarded so far from clients to the server, and back. */
  bytesFromClients = 0;
  bytesFromServer = 0;

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

  /** Destroys every live connection and resets every new one until `restore()`: no byte gets through. */
  cut(): void {
    this.refusing = true;
    this.killAll();
  }

  /** Undoes `cut()` and `freezeAll()`: new connections go through, frozen ones forward again. */
  restore(): void {
    this.refusing = false;
    this.unfreezeAll();
  }

  /**
   * Once `bytes` more have come from the server (on any connection), destroys every live
   * connection, once: a stream cut in the middle of a response. Resolves when it has cut.
   */
  cutAfterServerBytes(bytes: number): Promise<void> {
    return new Promise((resolve) => {
      this.cutBudget = { bytes, done: resolve };
    });
  }

  /**
   * Stops listening and destroys every live connection: clients get ECONNREFUSED, as from a
   * cluster that is unreachable, until `comeUp()`.
   */
  async goDown(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.killAll();
    await closed;
  }

  /** Listens again on the same port after `goDown()`. */
  async comeUp(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.refusing = false;
    this.cutBudget = undefined;
    this.killAll();
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, port: number, host: string): void {
    this.accepted++;
    if (this.refusing) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(port, host);
    const link = new RelayLink(
      client,
      upstream,
      this.frozenForNew,
      (n) => (this.clientBytesWhileFrozen += n),
      (n) => this.countServerBytes(n),
      (n) => (this.bytesFromClients += n),
    );
    this.links.add(link);
    link.onClosed = () => this.links.delete(link);
  }

  private countServerBytes(n: number): void {
    this.bytesFromServer += n;
    const budget = this.cutBudget;
    if (!budget) return;
    budget.bytes -= n;
    if (budget.bytes > 0) return;
    this.cutBudget = undefined;
    this.killAll();
    budget.done();
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
    private readonly onServerBytes: (n: number) => void = () => undefined,
    private readonly onClientBytes: (n: number) => void = () => undefined,
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
      else if (!to.destroyed) {
        to.write(chunk);
        if (from === this.upstream) this.onServerBytes(chunk.length);
        else this.onClientBytes(chunk.length);
      }
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
