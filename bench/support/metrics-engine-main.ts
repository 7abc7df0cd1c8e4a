/**
 * B16's engine process: the metrics engine alone (ClusterMetrics on our real transport), showing
 * one namespace, for a window of real time; prints its own CPU time over that window as JSON.
 * Apart from the server's process so that serving never counts as the engine's CPU.
 * Input (env B16_TASK): { kubeconfig, http2, namespace, intervalMs, warmupMs, windowMs }.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { systemClock } from '../../src/base';
import { clusterKeyOf } from '../../src/cluster/context-identity';
import { ClusterRegistry } from '../../src/connection/registry/cluster-registry';
import { kubeConfigTransportFactoryWith } from '../../src/connection/transport/transport-factory';
import { ClusterMetrics } from '../../src/metrics';

interface Task {
  kubeconfig: string;
  http2: boolean;
  namespace: string;
  intervalMs: number;
  warmupMs: number;
  windowMs: number;
}

async function main(): Promise<void> {
  const task = JSON.parse(process.env.B16_TASK ?? '{}') as Task;
  const kc = new KubeConfig();
  kc.loadFromString(task.kubeconfig);
  const transport = kubeConfigTransportFactoryWith(new ClusterRegistry(false), { http2: task.http2 })({ contextName: kc.getCurrentContext(), clusterKey: clusterKeyOf(kc), kubeConfig: kc });
  const metrics = new ClusterMetrics({ transport: () => transport, clock: systemClock, intervalMs: task.intervalMs });
  let rounds = 0;
  metrics.onDidChange(() => rounds++);
  const showing = metrics.show({ namespaces: [task.namespace] });
  await new Promise((r) => setTimeout(r, task.warmupMs));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rounds0 = rounds;
  process.stdout.write(`${JSON.stringify({ started: Date.now() })}\n`);
  await new Promise((r) => setTimeout(r, task.windowMs));
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ ended: Date.now(), cpuMs: (cpu.user + cpu.system) / 1000, wallMs, rounds: rounds - rounds0 })}\n`);
  showing.dispose();
  metrics.dispose();
  transport.dispose();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
