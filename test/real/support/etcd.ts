/**
 * etcd 3.5 on loopback for one control plane, and the two things tests ask of it directly
 * through its HTTP/JSON gateway: the current revision and a compaction (which, with the
 * apiserver's watch cache off, makes older resourceVersions answer 410).
 */
import * as path from 'node:path';
import { ManagedProcess } from './processes';
import { freePorts, isPortTaken } from './ports';
import { waitFor } from './wait';

/** How long etcd may take to answer /health on a loaded machine. */
const START_BOUND_MS = 60_000;
const ATTEMPTS = 3;

export class Etcd {
  private constructor(
    readonly url: string,
    private readonly process: ManagedProcess,
  ) {}

  /** Starts etcd with its data in `dataDir/etcd`, on free ports (fresh ones if a port was taken meanwhile). */
  static async start(binary: string, dataDir: string): Promise<Etcd> {
    for (let attempt = 1; ; attempt++) {
      const [clientPort, peerPort] = await freePorts(2);
      const url = `http://127.0.0.1:${clientPort}`;
      const peer = `http://127.0.0.1:${peerPort}`;
      const proc = ManagedProcess.spawn(
        'etcd',
        binary,
        [
          '--name=kube-watch-test',
          `--data-dir=${path.join(dataDir, 'etcd')}`,
          `--listen-client-urls=${url}`,
          `--advertise-client-urls=${url}`,
          `--listen-peer-urls=${peer}`,
          `--initial-advertise-peer-urls=${peer}`,
          `--initial-cluster=kube-watch-test=${peer}`,
          '--log-level=warn',
        ],
        dataDir,
        path.join(dataDir, 'etcd.log'),
      );
      const etcd = new Etcd(url, proc);
      try {
        await waitFor(async () => (await etcd.healthy()) || undefined, 'etcd /health', START_BOUND_MS, proc);
        return etcd;
      } catch (err) {
        await proc.stop(1000);
        if (attempt < ATTEMPTS && isPortTaken(proc.logTail(50))) continue;
        throw err;
      }
    }
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  async healthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { health?: string };
      return res.ok && body.health === 'true';
    } catch {
      return false;
    }
  }

  /** etcd's current revision (what the apiserver calls the resourceVersion). */
  async revision(): Promise<number> {
    const body = (await this.post('/v3/kv/range', { key: Buffer.from('\0').toString('base64') })) as { header?: { revision?: string } };
    const rev = Number(body.header?.revision);
    if (!Number.isInteger(rev) || rev <= 0) throw new Error(`etcd answered /v3/kv/range without a revision: ${JSON.stringify(body)}`);
    return rev;
  }

  /**
   * Compacts etcd's history up to `revision` (default: the current one), physically, as the
   * apiserver's own periodic compaction does. Returns the revision compacted at.
   */
  async compact(revision?: number): Promise<number> {
    const rev = revision ?? (await this.revision());
    await this.post('/v3/kv/compaction', { revision: String(rev), physical: true });
    return rev;
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }

  private async post(apiPath: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}${apiPath}`, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    if (!res.ok) throw new Error(`etcd ${apiPath}: HTTP ${res.status} ${text.trim()}`);
    return JSON.parse(text);
  }
}
