import assert from 'node:assert/strict';
import type { KubeTransport } from '../../src/informer';
import { isOriginRefusal, originOf, OriginTransport, resolveOrigin, type ObjectOrigin } from '../../src/manager';
import type { ContextSession } from '../../src/manager/context-session';

/** A usable session stand-in: only what originOf and resolveOrigin read. */
function session(spec: string, contextName: string, server: string, cluster: string, user = 'u1'): ContextSession {
  const transport = { server } as unknown as KubeTransport;
  return { spec, contextName, server, transport, fingerprint: { cluster, user }, userName: 'alice' } as unknown as ContextSession;
}

const cm = { metadata: { name: 'web', namespace: 'shop', uid: 'uid-1', resourceVersion: '7' } };

/**
 * An object's origin and where its writes go (W01): its own session while installed on the same
 * cluster; a live twin (same context, cluster and user); else a refusal that names both places.
 */
describe('manager: an object origin resolves to its own cluster or to a refusal', () => {
  it('is taken from the session the object was read through: context, server, user, digests, uid, resourceVersion', () => {
    const staging = session('', 'staging', 'https://staging:6443', 'c-staging');
    const origin = originOf(staging, cm)!;
    assert.deepEqual({ ...origin, session: undefined }, { context: 'staging', server: 'https://staging:6443', user: 'alice', fingerprint: { cluster: 'c-staging', user: 'u1' }, uid: 'uid-1', resourceVersion: '7', session: undefined });
    assert.equal(originOf({ ...staging, retired: true } as ContextSession, cm), undefined, 'a retired session gives none');
  });

  it('W01: its own session while installed; credentials rotated on it keep it', () => {
    const staging = session('', 'staging', 'https://staging:6443', 'c-staging');
    const origin = originOf(staging, cm)!;
    const r = resolveOrigin(origin, [staging]);
    assert.equal(!isOriginRefusal(r) && r.transport, staging.transport);
    staging.fingerprint = { cluster: 'c-staging', user: 'u2' };
    assert.equal(isOriginRefusal(resolveOrigin(origin, [staging])), false);
  });

  it('W01: the current context switched to prod: refused, naming both; a twin on the same context, cluster and user is used instead', () => {
    const staging = session('', 'staging', 'https://staging:6443', 'c-staging');
    const origin: ObjectOrigin = originOf(staging, cm)!;
    staging.retired = true;
    const prod = session('', 'prod', 'https://prod:6443', 'c-prod');
    assert.deepEqual(resolveOrigin(origin, [prod]), {
      refused: 'This object is from context "staging" (server https://staging:6443); the current context is now "prod" (server https://prod:6443): nothing was sent.',
    });
    const twin = session('staging', 'staging', 'https://staging:6443', 'c-staging');
    const r = resolveOrigin(origin, [prod, twin]);
    assert.equal(!isOriginRefusal(r) && r.transport, twin.transport);
    const otherUser = session('staging', 'staging', 'https://staging:6443', 'c-staging', 'u9');
    assert.equal(isOriginRefusal(resolveOrigin(origin, [prod, otherUser])), true, 'another user is not a twin');
  });

  it('W01: the same context name now points at another server: refused, saying so', () => {
    const before = session('', 'staging', 'https://staging:6443', 'c-staging');
    const origin = originOf(before, cm)!;
    const moved = session('', 'staging', 'https://elsewhere:6443', 'c-elsewhere');
    assert.deepEqual(resolveOrigin(origin, [moved]), {
      refused: 'This object is from context "staging" (server https://staging:6443); context "staging" now points at server https://elsewhere:6443: nothing was sent.',
    });
    const broken = { spec: '', contextName: '', problem: { message: 'the kubeconfig cannot be read', kind: 'kubeconfig', since: 0 } } as unknown as ContextSession;
    assert.deepEqual(resolveOrigin(origin, [broken]), {
      refused: 'This object is from context "staging" (server https://staging:6443), which cannot be used now (the kubeconfig cannot be read): nothing was sent, and nothing will be sent to another cluster.',
    });
  });

  it('W01: a port-forward, a shell or a log follower started on staging keeps its requests on staging; after the switch to prod each one is refused in words and prod gets none', async () => {
    const calls: string[] = [];
    const transportOf = (name: string) => ({ server: `https://${name}:6443`, getJson: async () => (calls.push(name), { ok: name }) }) as unknown as KubeTransport;
    const staging = { ...session('', 'staging', 'https://staging:6443', 'c-staging'), transport: transportOf('staging') } as ContextSession;
    const sessions = [staging];
    const pinned = new OriginTransport(originOf(staging), (o) => resolveOrigin(o, sessions), 'shop/web');
    const signal = new AbortController().signal;
    assert.deepEqual(await pinned.getJson('/api/v1/namespaces/shop/pods/web', {}, signal), { ok: 'staging' });
    staging.retired = true;
    sessions.splice(0, 1, { ...session('', 'prod', 'https://prod:6443', 'c-prod'), transport: transportOf('prod') } as ContextSession);
    await assert.rejects(pinned.getJson('/api/v1/namespaces/shop/pods/web', {}, signal), /This object is from context "staging" \(server https:\/\/staging:6443\); the current context is now "prod" \(server https:\/\/prod:6443\): nothing was sent\./);
    assert.deepEqual(calls, ['staging'], 'nothing reached prod');
    assert.equal(pinned.server, 'https://staging:6443');
  });
});
