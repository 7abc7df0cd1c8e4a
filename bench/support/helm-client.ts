/**
 * B14's client side, in a bench client process (the extension host's stand-in): a WatchManager on
 * the B14 server's context, then the Helm Releases section opened as the extension opens it
 * (`HelmReleaseSource`: metadata-only watches of `owner=helm` Secrets and ConfigMaps). Measures
 * from opening the source to every release listed with its watches synced, and the heap the
 * section keeps (after GC, source still open) over the heap before it was opened.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { WatchManager } from '../../src/manager';
import { HelmReleaseSource } from '../../src/vscode/helm/helm-release-source';
import type { Conn } from './sync-measure';

export interface HelmListTask {
  conn: Conn;
  releases: number;
  revisions: number;
}

export interface HelmListResult {
  ms: number;
  releases: number;
  revisions: number;
  heapBefore: number;
  heapAfter: number;
}

function gcHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

export async function helmList(t: HelmListTask): Promise<HelmListResult> {
  const dir = mkdtempSync(join(tmpdir(), 'kw-bench-helm-'));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'bench', server: t.conn.url, caData: Buffer.from(t.conn.caPem).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'bench', token: `bench-${t.conn.label}` }],
    contexts: [{ name: 'bench', cluster: 'bench', user: 'bench' }],
    currentContext: 'bench',
  });
  const kubeconfigPath = join(dir, 'config');
  writeFileSync(kubeconfigPath, kc.exportConfig());
  const manager = new WatchManager({ contexts: [], resources: [], namespaces: [], kubeconfigPath });
  let source: HelmReleaseSource | undefined;
  try {
    await manager.start();
    const ready = performance.now() + 30_000;
    while (!manager.contextConnection('') || 'problem' in manager.contextConnection('')!) {
      if (performance.now() > ready) throw new Error(`the context did not connect: ${JSON.stringify(manager.contextConnection(''))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const heapBefore = gcHeap();
    const t0 = performance.now();
    source = new HelmReleaseSource(manager);
    const s = source;
    const listed = () => s.problem('') === undefined && s.releases('').length === t.releases;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listed in 120 s: ${s.releases('').length} releases, ${s.problem('') ?? 'synced'}`)), 120_000);
      const check = () => {
        if (!listed()) return;
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const sub = s.onDidChange(check);
      check();
    });
    const ms = performance.now() - t0;
    const releases = s.releases('');
    const heapAfter = gcHeap();
    return { ms, releases: releases.length, revisions: releases.reduce((n, r) => n + r.revisions.length, 0), heapBefore, heapAfter };
  } finally {
    source?.dispose();
    await manager.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
