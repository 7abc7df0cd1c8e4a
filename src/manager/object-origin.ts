import type { AccessReviewCache } from '../cluster/access-review';
import type { ContextFingerprint } from '../cluster/context-identity';
import type { KubeObject, KubeTransport } from '../informer';
import type { ContextSession } from './context-session';

/**
 * Where an object was read: the context, its cluster and user, the session it came through, and
 * the object's uid and resourceVersion then. Captured where the object is shown, opened for
 * editing or targeted by an action, and carried to the write: a write is sent on its origin's
 * connection, never looked up again by a watch entry's id (WRITES.md W01). A context switch
 * (`kubectl config use-context`, a rewritten kubeconfig) therefore cannot send a write planned
 * on one cluster to another.
 * Invariant: never holds a credential (the fingerprint's digests are one-way).
 */
export interface ObjectOrigin {
  /** The kubeconfig context's name, as it resolved when the object was read. */
  readonly context: string;
  /** The cluster's server URL then ('' when unknown). */
  readonly server: string;
  /** The kubeconfig user's name then, when known. */
  readonly user?: string;
  /** The cluster and user digests then (src/cluster/context-identity.ts). */
  readonly fingerprint: ContextFingerprint;
  /** The object's uid and resourceVersion as read ('' uid: not known). */
  readonly uid: string;
  readonly resourceVersion?: string;
  /** The session the object came through: opaque to everyone but `resolveOrigin`. */
  readonly session: ContextSession;
}

/** The connection a write of an origin goes through: the same cluster, with the same user. */
export interface PinnedConnection {
  readonly transport: KubeTransport;
  readonly access?: AccessReviewCache;
  readonly user?: string;
  readonly context: string;
}

/** Why a write of an origin cannot be sent: nothing was sent, in a user's words. */
export interface OriginRefusal {
  readonly refused: string;
}

export type OriginResolution = PinnedConnection | OriginRefusal;

export function isOriginRefusal(r: OriginResolution): r is OriginRefusal {
  return 'refused' in r;
}

/**
 * The origin of `object` read through `session` now; undefined when the session cannot be used
 * (no transport, no fingerprint).
 */
export function originOf(session: ContextSession, object?: KubeObject): ObjectOrigin | undefined {
  if (!session.transport || !session.fingerprint || session.retired) return undefined;
  return {
    context: session.contextName,
    server: session.server ?? session.transport.server,
    ...(session.userName ? { user: session.userName } : {}),
    fingerprint: { ...session.fingerprint },
    uid: object?.metadata.uid ?? '',
    ...(object?.metadata.resourceVersion ? { resourceVersion: object.metadata.resourceVersion } : {}),
    session,
  };
}

/** The same origin for a newer version of the same object (another resourceVersion, same uid). */
export function withObject(origin: ObjectOrigin, object: KubeObject): ObjectOrigin {
  return { ...origin, uid: object.metadata.uid ?? origin.uid, resourceVersion: object.metadata.resourceVersion };
}

/** True when the session can carry writes now. */
function usable(session: ContextSession): session is ContextSession & { transport: NonNullable<ContextSession['transport']> } {
  return Boolean(session.transport) && !session.retired && !session.problem;
}

/**
 * The connection a write of `origin` goes through now (W01):
 * 1. its own session, while it is still installed and talks to the same cluster (credentials
 *    rotated on that cluster keep it: the same user, renewed);
 * 2. else a live session with the same context name and the same cluster and user digests;
 * 3. else a refusal that names the origin's context and server and what the current context
 *    (of the origin's configured spec) is now. Never another cluster.
 * `installed`: the session each configured spec has now (spec "" is the current-context).
 */
export function resolveOrigin(origin: ObjectOrigin, installed: Iterable<ContextSession>): OriginResolution {
  const sessions = [...installed];
  const own = origin.session;
  if (sessions.includes(own) && usable(own) && own.fingerprint?.cluster === origin.fingerprint.cluster && own.contextName === origin.context) {
    return connectionOf(own);
  }
  const twin = sessions.find(
    (s) => usable(s) && s.contextName === origin.context && s.fingerprint?.cluster === origin.fingerprint.cluster && s.fingerprint?.user === origin.fingerprint.user,
  );
  if (twin && usable(twin)) return connectionOf(twin);
  return { refused: refusalWords(origin, sessions.find((s) => s.spec === own.spec)) };
}

function connectionOf(session: ContextSession & { transport: KubeTransport }): PinnedConnection {
  return { transport: session.transport, ...(session.access ? { access: session.access } : {}), ...(session.userName ? { user: session.userName } : {}), context: session.contextName };
}

/** "context A (server X)" */
export function originPlace(context: string, server: string | undefined): string {
  return `context ${context ? `"${context}"` : '(unnamed)'}${server ? ` (server ${server})` : ''}`;
}

/** The refusal's first sentence: where the object is from, and where the context points now. */
function refusalWords(origin: ObjectOrigin, now: ContextSession | undefined): string {
  const from = `This object is from ${originPlace(origin.context, origin.server)}`;
  const nowServer = now?.server ?? now?.transport?.server;
  if (!now || now.problem || !now.transport) {
    const why = now?.problem ? ` (${now.problem.message})` : '';
    return `${from}, which cannot be used now${why}: nothing was sent, and nothing will be sent to another cluster.`;
  }
  if (now.contextName === origin.context) {
    return `${from}; ${originPlace(origin.context, undefined)} now points at ${nowServer ? `server ${nowServer}` : 'another cluster'}${now.fingerprint?.cluster === origin.fingerprint.cluster ? ' with other credentials' : ''}: nothing was sent.`;
  }
  // "the current context is now "prod" (server Y)": the word context said once.
  const current = origin.session.spec === '' ? 'the current context is now' : 'its configured context is now';
  return `${from}; ${current} ${now.contextName ? `"${now.contextName}"` : '(unnamed)'}${nowServer ? ` (server ${nowServer})` : ''}: nothing was sent.`;
}

/** True when two origins name the same context on the same cluster (a watch's later objects may update an edit's). */
export function sameCluster(a: Pick<ObjectOrigin, 'context' | 'fingerprint'>, b: Pick<ObjectOrigin, 'context' | 'fingerprint'>): boolean {
  return a.context === b.context && a.fingerprint.cluster === b.fingerprint.cluster;
}
