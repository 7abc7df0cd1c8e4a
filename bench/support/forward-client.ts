/**
 * B12's client, in a process of its own like the extension host: a WatchManager on the
 * kubeconfig given and one PortForward of a Service through it. Prints `{"port":N}` once bound;
 * on a line `stop` on stdin prints `{"cpuMs":…,"status":…}` (CPU used since the line `go`) and exits.
 */
import * as readline from 'node:readline';
import { systemClock } from '../../src/base';
import { WatchManager } from '../../src/manager';
import { PortForward } from '../../src/port-forward';

async function main(): Promise<void> {
  const [kubeconfigPath, namespace, service, port] = process.argv.slice(2);
  const manager = new WatchManager({ contexts: [], resources: ['services'], namespaces: [], kubeconfigPath }, { clock: systemClock });
  await manager.start();
  while (!manager.entries().some((e) => e.informer?.state.synced)) await new Promise((r) => setTimeout(r, 50));
  const entry = manager.entries()[0];
  const spec = manager.contextSpecOf(entry.id)!;
  const forward = new PortForward({ kind: 'Service', namespace, name: service, port: Number(port), localPort: 0 }, {
    transport: manager.transportOf(entry.id)!,
    clock: systemClock,
    watch: (request) => manager.watchAdHoc({ spec, ...request }),
  });
  await forward.start();
  process.stdout.write(`${JSON.stringify({ port: forward.status.localPort })}\n`);
  let from = process.cpuUsage();
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (line === 'go') from = process.cpuUsage();
    if (line !== 'stop') return;
    const used = process.cpuUsage(from);
    process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000, status: forward.status })}\n`);
    rl.close();
    void forward.stop().then(() => manager.stop()).then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`forward-client: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
