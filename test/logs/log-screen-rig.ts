/**
 * What the log terminal tests share: the local API server over HTTP/1.1 or HTTP/2 with our
 * transport, a manual clock, and a recorder of the bytes a LogScreen writes that reads them back
 * as the rows a terminal would show (since the last full redraw, carriage returns honoured,
 * colours removed).
 */
import { strict as assert } from 'node:assert';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../src/connection/transport/kubeconfig-transport';
import { FakeApiServer } from '../support/apiserver';
import { ManualClock } from '../ui/lifecycle-rig';

/** The instant the tests' log lines start at. */
export const T0 = Date.parse('2026-11-23T02:40:00.100Z');

export const PROTOCOL_CASES = [
  { http2: false, label: 'HTTP/1.1', protocol: 'http/1.1' },
  { http2: true, label: 'HTTP/2', protocol: 'h2' },
] as const;

const CLEAR = '\x1b[2J\x1b[3J\x1b[H';
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export class ScreenRecorder {
  bytes = '';
  readonly write = (text: string): void => {
    this.bytes += text;
  };

  /** The bytes written since the last full redraw. */
  sinceRedraw(): string {
    const at = this.bytes.lastIndexOf(CLEAR);
    return at >= 0 ? this.bytes.slice(at + CLEAR.length) : this.bytes;
  }

  /** The rows on screen since the last full redraw, as plain text. */
  rows(): string[] {
    const segments = this.sinceRedraw().split('\r\n');
    if (segments[segments.length - 1] === '') segments.pop();
    return segments.map((s) => s.slice(s.lastIndexOf('\r') + 1).replace(ANSI, ''));
  }

  /** The rows that are log lines or markers (the header and status lines, `── … ──` before the first line, left out when `skipHeader`). */
  body(headerRows: number): string[] {
    return this.rows().slice(headerRows);
  }
}

export interface ServerRig {
  readonly server: FakeApiServer;
  readonly transport: KubeConfigTransport;
  readonly clock: ManualClock;
  close(): Promise<void>;
}

/** The local API server (`http2`: HTTP/2 with HTTP/1.1 allowed; else HTTP/1.1 only) and our transport to it. */
export async function startServer(http2: boolean): Promise<ServerRig> {
  const server = await FakeApiServer.start({ http2 });
  const kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig());
  const transport = new KubeConfigTransport(kc);
  const clock = new ManualClock(T0 + 60_000);
  return {
    server,
    transport,
    clock,
    async close() {
      transport.dispose();
      await server.close();
    },
  };
}

/** The transport spoke `protocol` to the server. */
export function assertProtocol(rig: ServerRig, protocol: 'h2' | 'http/1.1'): void {
  assert.equal(rig.transport.protocol ?? 'http/1.1', protocol, 'the protocol the transport spoke');
  const logs = rig.server.requests.filter((r) => r.path.endsWith('/log'));
  assert.ok(logs.length > 0 && logs.every((r) => r.protocol === protocol), `log requests over ${protocol}: ${logs.map((r) => r.protocol).join(', ')}`);
}
