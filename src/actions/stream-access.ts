import type { AccessQuery } from '../cluster/access-review';

/**
 * The streams a pod row offers beside its writes: a shell or command (pods/exec), a port-forward
 * (pods/portforward) and a debug container (a patch of pods/ephemeralcontainers, then an attach
 * to it: pods/attach). kube-apiserver 1.34 authorizes a WebSocket upgrade as `get` on the
 * subresource and, with AuthorizePodWebsocketUpgradeCreatePermission (on by default), `create`
 * too: both are asked, per namespace, as the actions' questions are, so that a user who may not
 * is never offered one.
 */
export type StreamId = 'shell' | 'forward' | 'debug';

const SUBRESOURCE: Record<'shell' | 'forward', string> = { shell: 'exec', forward: 'portforward' };

const upgrade = (subresource: string, namespace: string): AccessQuery[] => ['create', 'get'].map((verb) => ({ verb, group: '', resource: 'pods', subresource, ...(namespace ? { namespace } : {}) }));

/** What the user must be allowed, all of it, to open `stream` to pods of `namespace`. */
export function streamNeeds(stream: StreamId, namespace: string): AccessQuery[] {
  if (stream === 'debug') return [{ verb: 'patch', group: '', resource: 'pods', subresource: 'ephemeralcontainers', ...(namespace ? { namespace } : {}) }, ...upgrade('attach', namespace)];
  return upgrade(SUBRESOURCE[stream], namespace);
}

/** The subresource a refusal's server message names (`pods/attach`), or the stream's first. */
function refusedSubresource(stream: StreamId, serverMessage: string): string {
  const named = /resource "pods\/([a-z]+)"/.exec(serverMessage)?.[1];
  if (named) return named;
  return stream === 'debug' ? 'ephemeralcontainers' : SUBRESOURCE[stream];
}

const WHAT: Record<string, { what: string; verbs: string }> = {
  exec: { what: 'run commands in pods (pods/exec)', verbs: 'create and get' },
  portforward: { what: 'forward ports of pods (pods/portforward)', verbs: 'create and get' },
  ephemeralcontainers: { what: 'add debug containers to pods (pods/ephemeralcontainers)', verbs: 'patch' },
  attach: { what: 'attach to containers of pods (pods/attach)', verbs: 'create and get' },
};

/**
 * The words of a stream refused by the cluster's access rules (a 403): final (waiting or trying
 * again changes nothing), naming who may not do what, and who can change that.
 */
export function streamRefusalWords(stream: StreamId, namespace: string, serverMessage: string, user?: string): string {
  const who = /User "([^"]+)"/.exec(serverMessage)?.[1] ?? user;
  const subresource = refusedSubresource(stream, serverMessage);
  const { what, verbs } = WHAT[subresource] ?? { what: `use pods/${subresource}`, verbs: 'the verbs' };
  return `Not allowed: ${who ? `user "${who}"` : 'you'} may not ${what} in namespace ${namespace}. The cluster's access rules (RBAC) refused it; trying again will not help. Whoever administers RBAC in namespace ${namespace} (a Role and RoleBinding granting ${verbs} on pods/${subresource}) can allow it.`;
}
