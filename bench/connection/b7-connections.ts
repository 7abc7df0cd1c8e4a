/**
 * B7: 250 informers on one cluster (50 namespaces x 5 types) against the local API server
 * speaking HTTP/2 with 100 streams per connection (HTTP/1.1 still allowed, for clients without
 * HTTP/2). The server runs here; each client (ours, or @kubernetes/client-node's informer) in a
 * process of its own (`b7-client.ts`), so its heap figure holds the client alone. Counted once
 * every watch is open: the TCP connections the server holds and the client's heap growth after
 * gc. `npm run bench -- --only B7` runs it as a case; standalone:
 *   node --import tsx bench/connection/b7-connections.ts ours|reference
 * Target: ceil(250/100) = 3 connections; heap at most the reference's.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { FakeApiServer } from '../../test/support/apiserver';
import { B7_NAMESPACES, B7_PER_TYPE_AND_NAMESPACE, B7_TYPES, type B7ClientReport, type B7Result } from './b7-shape';

/** Runs one side against a fresh server and returns its figures. */
export async function runB7(which: 'ours' | 'reference'): Promise<B7Result> {
  const server = await FakeApiServer.start({ http2: true, maxConcurrentStreams: 100 });
  try {
    for (let n = 0; n < B7_NAMESPACES; n++)
      for (const t of B7_TYPES)
        for (let i = 0; i < B7_PER_TYPE_AND_NAMESPACE; i++)
          server.create(t.group ? `${t.resource}.${t.group}` : t.resource, { metadata: { name: `${t.resource}-${i}`, namespace: `ns-${n}` } });
    const child = fork(join(__dirname, 'b7-client.ts'), [which], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      env: { ...process.env, KUBE_WATCH_B7_KUBECONFIG: server.kubeconfig() },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const next = () =>
      new Promise<unknown>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`B7 ${which} client exited with ${code}`));
        child.once('exit', onExit);
        child.once('message', (m) => {
          child.off('exit', onExit);
          resolve(m);
        });
      });
    try {
      await next(); // 'synced'
      const informers = B7_NAMESPACES * B7_TYPES.length;
      for (let i = 0; i < 2400 && server.openWatches() < informers; i++) await new Promise((r) => setTimeout(r, 50));
      const watches = server.openWatches();
      const connections = server.openSockets();
      child.send('measure');
      const report = (await next()) as B7ClientReport;
      child.send('stop');
      await exited;
      return { ...report, connections, watches };
    } finally {
      if (child.exitCode === null) child.kill();
    }
  } finally {
    await server.close();
  }
}

if (require.main === module) {
  const which = process.argv[2] === 'reference' ? 'reference' : 'ours';
  runB7(which).then(
    (r) => {
      console.log(
        `B7 ${which}: ${r.informers} informers synced in ${Math.round(r.syncedMs)} ms; watches open: ${r.watches}; ` +
          `TCP connections to the server: ${r.connections}; heap growth after gc: ${(r.heapGrowth / 2 ** 20).toFixed(1)} MiB`,
      );
      process.exit(0);
    },
    (err: unknown) => {
      console.error(`B7 failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
