import type { KubeObject } from '../../informer';
import { age, ageField, condition, orNone, record, records, str } from './cells';
import { row, type PrintedRow } from './printed-row';

const ROLE_PREFIX = 'node-role.kubernetes.io/';

/** The roles kubectl reads from a node's labels (`node-role.kubernetes.io/<role>`, `kubernetes.io/role`), sorted. */
export function nodeRoles(obj: KubeObject): string[] {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(obj.metadata.labels ?? {})) {
    if (key.startsWith(ROLE_PREFIX) && key.length > ROLE_PREFIX.length) roles.add(key.slice(ROLE_PREFIX.length));
    else if (key === 'kubernetes.io/role' && value) roles.add(value);
  }
  return [...roles].sort();
}

/** Nodes: NAME STATUS ROLES AGE VERSION, wide INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME. */
export function printNode(obj: KubeObject, now: number): PrintedRow {
  const spec = record(obj.spec);
  const st = record(obj.status);
  const ready = condition(st, 'Ready');
  const parts = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (spec.unschedulable === true) parts.push('SchedulingDisabled');
  const status = parts.join(',');
  const roles = nodeRoles(obj).join(',');
  const info = record(st.nodeInfo);
  const address = (type: string) => str(records(st.addresses).find((a) => a.type === type)?.address);
  const health =
    parts[0] !== 'Ready' ? { icon: 'error', tone: 'error' as const } : spec.unschedulable === true ? { icon: 'circle-slash', tone: 'warning' as const } : { icon: 'pass', tone: 'ok' as const };
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['STATUS', status],
      ['ROLES', orNone(roles)],
      ['AGE', age(obj, now)],
      ['VERSION', str(info.kubeletVersion)],
    ],
    { summary: [status, roles, str(info.kubeletVersion), ageField(obj, now)], health, notes: ready && ready.status !== 'True' && str(ready.message) ? [str(ready.message)] : [] },
    [
      ['INTERNAL-IP', orNone(address('InternalIP'))],
      ['EXTERNAL-IP', orNone(address('ExternalIP'))],
      ['OS-IMAGE', str(info.osImage)],
      ['KERNEL-VERSION', str(info.kernelVersion)],
      ['CONTAINER-RUNTIME', str(info.containerRuntimeVersion)],
    ],
  );
}
