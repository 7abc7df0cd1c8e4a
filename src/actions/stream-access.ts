import type { AccessQuery } from '../cluster/access-review';

/**
 * The streams a pod row offers beside its writes: a shell or command (pods/exec) and a
 * port-forward (pods/portforward). kube-apiserver 1.34 authorizes their WebSocket upgrade as
 * `get` on the subresource and, with AuthorizePodWebsocketUpgradeCreatePermission (on by
 * default), `create` too: both are asked, per namespace, as the actions' questions are, so that a
 * user who may not is never offered one.
 */
export type StreamId = 'shell' | 'forward';

const SUBRESOURCE: Record<StreamId, string> = { shell: 'exec', forward: 'portforward' };

/** What the user must be allowed, all of it, to open `stream` to pods of `namespace`. */
export function streamNeeds(stream: StreamId, namespace: string): AccessQuery[] {
  return ['create', 'get'].map((verb) => ({ verb, group: '', resource: 'pods', subresource: SUBRESOURCE[stream], ...(namespace ? { namespace } : {}) }));
}

/**
 * The words of a stream refused by the cluster's access rules (a 403): final (waiting or trying
 * again changes nothing), naming who may not do what, and who can change that.
 */
export function streamRefusalWords(stream: StreamId, namespace: string, serverMessage: string, user?: string): string {
  const who = /User "([^"]+)"/.exec(serverMessage)?.[1] ?? user;
  const what = stream === 'shell' ? 'run commands in pods (pods/exec)' : 'forward ports of pods (pods/portforward)';
  return `Not allowed: ${who ? `user "${who}"` : 'you'} may not ${what} in namespace ${namespace}. The cluster's access rules (RBAC) refused it; trying again will not help. Whoever administers RBAC in namespace ${namespace} (a Role and RoleBinding granting create and get on pods/${SUBRESOURCE[stream]}) can allow it.`;
}
