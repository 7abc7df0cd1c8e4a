/**
 * A SOCKS5 proxy on loopback for tests (RFC 1928: no authentication, CONNECT only). It resolves
 * names from its own table (e.g. `localhost` -> 127.0.0.1) and records the destinations it was
 * asked for. Invariant: every socket it holds is destroyed by `close()`.
 */
import * as net from 'node:net';

export class SocksProxy {
  /** host:port of every CONNECT, in order. */
  readonly connects: string[] = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((client) => this.accept(client));

  private constructor(private readonly hosts: Record<string, string>) {}

  static async start(hosts: Record<string, string> = { localhost: '127.0.0.1' }): Promise<SocksProxy> {
    const p = new SocksProxy(hosts);
    await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
    return p;
  }

  get url(): string {
    return `socks5://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(s: net.Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => undefined);
  }

  private accept(client: net.Socket): void {
    this.track(client);
    let buf = Buffer.alloc(0);
    let stage: 'greeting' | 'request' = 'greeting';
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]) return;
        buf = buf.subarray(2 + buf[1]);
        client.write(Buffer.from([5, 0])); // version 5, no authentication
        stage = 'request';
      }
      if (buf.length < 5) return;
      const atyp = buf[3];
      const addrLen = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + buf[4];
      if (buf.length < 4 + addrLen + 2) return;
      let host: string;
      if (atyp === 1) host = [...buf.subarray(4, 8)].join('.');
      else if (atyp === 3) host = buf.subarray(5, 5 + buf[4]).toString('latin1');
      else host = '::1';
      const port = buf.readUInt16BE(4 + addrLen);
      const rest = buf.subarray(4 + addrLen + 2);
      client.off('data', onData);
      this.connects.push(`${host}:${port}`);
      const upstream = net.connect(port, this.hosts[host] ?? host);
      this.track(upstream);
      upstream.once('connect', () => {
        client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
        if (rest.length > 0) upstream.write(rest);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      upstream.once('error', () => {
        client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0]));
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    client.on('data', onData);
  }
}
