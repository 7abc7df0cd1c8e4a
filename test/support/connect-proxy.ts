/**
 * An HTTP CONNECT proxy on loopback for tests. It resolves host names from its own table only
 * (e.g. `kube.test.invalid` -> 127.0.0.1), so a client that bypasses it cannot reach a server
 * named that way. It records every tunnel it was asked for.
 */
import * as http from 'node:http';
import * as net from 'node:net';

export interface TunnelRecord {
  /** host:port as asked in the CONNECT line. */
  authority: string;
  status: number;
  /** Whether a Proxy-Authorization header came along (its value is not kept). */
  authorized: boolean;
}

export class ConnectProxy {
  readonly tunnels: TunnelRecord[] = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly server = http.createServer((_req, res) => {
    res.writeHead(405).end();
  });
  /** When set, CONNECT needs `Proxy-Authorization: Basic base64(user:pass)` with these. */
  requireAuth: { user: string; pass: string } | undefined;

  private constructor(private readonly hosts: Record<string, string>) {
    this.server.on('connection', (s: net.Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => this.tunnel(req, client, head));
  }

  static async start(hosts: Record<string, string>): Promise<ConnectProxy> {
    const p = new ConnectProxy(hosts);
    await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
    return p;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    const authority = req.url ?? '';
    const auth = req.headers['proxy-authorization'];
    const record: TunnelRecord = { authority, status: 0, authorized: auth !== undefined };
    this.tunnels.push(record);
    const reply = (code: number, text: string) => {
      record.status = code;
      client.end(`HTTP/1.1 ${code} ${text}\r\n${code === 407 ? 'Proxy-Authenticate: Basic realm="test"\r\n' : ''}\r\n`);
    };
    if (this.requireAuth && auth !== `Basic ${Buffer.from(`${this.requireAuth.user}:${this.requireAuth.pass}`).toString('base64')}`) return reply(407, 'Proxy Authentication Required');
    const m = /^(.+):(\d+)$/.exec(authority);
    const ip = m ? this.hosts[m[1].toLowerCase()] : undefined;
    if (!m || !ip) return reply(502, 'Bad Gateway');
    const upstream = net.connect(Number(m[2]), ip);
    this.sockets.add(upstream);
    upstream.on('close', () => this.sockets.delete(upstream));
    upstream.once('connect', () => {
      record.status = 200;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => (record.status ? client.destroy() : reply(502, 'Bad Gateway')));
    client.on('error', () => upstream.destroy());
  }
}
