/**
 * The sandbox's faults of port-forwards and shells, run when typed (never on the timer):
 * `pf-kill-pod` deletes the pod a port-forward is on and lets its ReplicaSet replace it (ready
 * 2 s later), `pf-drop` cuts every port-forward stream, `exec-drop` every shell and command.
 */
import { replacePod } from './pod-replacer';
import type { SimulatedCluster } from './simulated-cluster';

export const STREAM_FAULT_NAMES = ['pf-kill-pod', 'pf-drop', 'exec-drop'] as const;
export type StreamFaultName = (typeof STREAM_FAULT_NAMES)[number];

export function isStreamFault(name: string): name is StreamFaultName {
  return (STREAM_FAULT_NAMES as readonly string[]).includes(name);
}

/** Runs one; says what happened and what to look for, or why there is nothing to do. */
export async function runStreamFault(name: StreamFaultName, cluster: SimulatedCluster, announce: (kind: 'fault' | 'done' | 'info', line: string) => void, timers: Set<NodeJS.Timeout>): Promise<void> {
  const streams = cluster.server.podStreams;
  if (name === 'exec-drop') {
    const n = streams.drop('exec');
    if (n === 0) return announce('info', 'no shell is open, so "exec-drop" would show nothing: run "Kube Watch: Open Shell…" on a Running pod first');
    announce('fault', `dropped ${n} exec stream(s). Look: the shell terminal says the connection dropped, how long the session lasted and that the pod still exists, and offers a new session on Enter.`);
    return announce('done', 'exec fault over');
  }
  const pods = streams.podsWithStreams('portforward');
  if (name === 'pf-drop') {
    const n = streams.drop('portforward');
    if (n === 0) return announce('info', 'no connection runs through a port-forward now, so "pf-drop" would show nothing: start one (Port Forward… on shop/web) and keep a request going (curl in a loop)');
    announce('fault', `dropped ${n} port-forward stream(s) of ${pods.map((p) => `${p.namespace}/${p.name}`).join(', ')}. Look: those connections end; the next ones open new streams at once; the Port Forwards row stays "ready".`);
    return announce('done', 'port-forward fault over');
  }
  if (pods.length === 0) return announce('info', 'no connection runs through a port-forward now, so "pf-kill-pod" has no pod to kill: start one (Port Forward… on shop/web) and keep a request going (curl in a loop)');
  for (const p of pods) {
    announce('fault', `killed pod ${p.namespace}/${p.name}, the one a port-forward is on; its ReplicaSet starts a new one, ready in 2 s. Look: the Port Forwards row moves to the other ready pod (or waits for the new one), counts the connections that were in flight, and every request after the switch is answered by the new pod.`);
    const next = await replacePod(cluster.server, p.namespace, p.name, 2000, timers);
    if (next) announce('done', `pod ${p.namespace}/${next} replaced ${p.name} and is ready`);
  }
  cluster.reconcileWorkloads();
}
