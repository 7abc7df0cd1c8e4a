/**
 * What a ReplicaSet controller and the kubelet do when a pod dies: the pod is deleted, a new one
 * with a new name (same labels, owner, image and ports) is created Pending, and turns Running and
 * ready after `readyAfterMs`. The sandbox's `pf-kill-pod` fault and the B12 benchmark use it.
 */
import type { FakeApiServer, KubeObjectJson } from '../../test/support/apiserver';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function suffix(): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return out;
}

/** The replacement's name: the ReplicaSet's pods are `<rs>-<5 chars>`; a pod without that shape gets a suffix. */
export function replacementName(name: string): string {
  const base = /-[a-z0-9]{5}$/.test(name) ? name.slice(0, -6) : name;
  return `${base}-${suffix()}`;
}

/** Deletes `namespace/name` and creates its successor; resolves with the successor's name once it is ready. */
export async function replacePod(server: FakeApiServer, namespace: string, name: string, readyAfterMs: number, timers: Set<NodeJS.Timeout>): Promise<string | undefined> {
  const old = server.get('pods', namespace, name);
  if (!old) return undefined;
  server.delete('pods', namespace, name);
  const next = replacementName(name);
  const spec = structuredClone(old.spec) as Record<string, unknown>;
  const containerName = ((spec.containers as Array<{ name?: string }> | undefined)?.[0]?.name) ?? 'main';
  const pending: KubeObjectJson = {
    metadata: { namespace, name: next, labels: old.metadata.labels ?? {}, ...(old.metadata.ownerReferences ? { ownerReferences: old.metadata.ownerReferences } : {}) },
    spec,
    status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: [{ name: containerName, ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] },
  };
  server.create('pods', pending);
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      timers.delete(t);
      resolve();
    }, readyAfterMs);
    timers.add(t);
  });
  const current = server.get('pods', namespace, next);
  if (!current) return next;
  const startedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  server.update('pods', { ...current, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: containerName, ready: true, restartCount: 0, state: { running: { startedAt } } }] } });
  return next;
}
