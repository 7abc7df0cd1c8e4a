import assert from 'node:assert/strict';
import { runActionFlow, TRY_AGAIN, WriteJournal, type ActionDialogPort, type ActionFlowDeps, type PinnedTarget } from '../../src/actions';
import { ApiError, TransportError } from '../../src/base';
import type { KubeObject, KubeTransport, ResourceType, WriteRequest } from '../../src/informer';
import type { ObjectOrigin, OriginResolution } from '../../src/manager';
import { actionChoices, deleteChoices, revisionChoices } from '../../src/ui/actions';
import { ManualClock } from '../support/manual-clock';

const DEPLOYMENTS: ResourceType = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };

function deployment(rv: string, replicas: number, uid = 'uid-1'): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', uid, resourceVersion: rv }, spec: { replicas } };
}

/**
 * The action flow without VS Code (src/actions/action-flow.ts): the questions in order, the
 * words of each refusal, the write through the origin only, the plan made again and confirmed
 * again when the object moved (W09), and a plan kept, never queued, when the cluster cannot be
 * reached (W16).
 */
describe('actions: the flow of an action, with a fake dialog port', () => {
  let said: string[];
  let sent: WriteRequest[];
  let journal: WriteJournal;
  /** What the next writes do: an answer, or an error to throw. */
  let writes: (unknown | Error)[];
  let server: KubeObject | undefined;
  let refused: string | undefined;
  let errorAnswers: (string | undefined)[];
  let watched: KubeObject | undefined;

  const transport = {
    server: 'https://staging.example:6443',
    write: async <T,>(request: WriteRequest): Promise<T> => {
      sent.push(request);
      const next = writes.shift();
      if (next instanceof Error) throw next;
      return (next ?? { kind: 'Scale', metadata: { resourceVersion: '99' } }) as T;
    },
    getJson: async <T,>(): Promise<T> => {
      if (!server) throw new ApiError({ code: 404, reason: 'NotFound', message: 'deployments.apps "web" not found' }, 'http', 404);
      return server as T;
    },
  } as unknown as KubeTransport;

  const dialogs: ActionDialogPort = {
    askText: async (title, prompt, value) => (said.push(`ask: ${title} | ${prompt} | ${value}`), '3'),
    pickChoice: async (_choices, title) => (said.push(`pick: ${title}`), undefined),
    confirmPlan: async (plan) => (said.push(`confirm: ${plan.title}`), 'confirmed'),
    info: (m) => void said.push(`info: ${m}`),
    warning: (m) => void said.push(`warning: ${m}`),
    error: async (m, ...buttons) => (said.push(`error: ${m}${buttons.length ? ` [${buttons.join(', ')}]` : ''}`), errorAnswers.shift()),
    status: (m) => void said.push(`status: ${m}`),
    copy: async (text, what) => void said.push(`copy ${what}: ${text}`),
  };

  const origin = { context: 'staging', server: 'https://staging.example:6443', fingerprint: { cluster: 'c', user: 'u' }, uid: 'uid-1', session: {} } as unknown as ObjectOrigin;
  const pinned = (object: KubeObject): PinnedTarget => ({ target: { context: 'staging', type: DEPLOYMENTS, namespace: 'shop', name: 'web', object }, origin: { ...origin, resourceVersion: object.metadata.resourceVersion } });
  const deps = (): ActionFlowDeps => ({
    dialogs,
    choices: { revisions: revisionChoices, deleteOptions: deleteChoices, actions: actionChoices },
    journal,
    clock: new ManualClock(Date.parse('2026-01-02T03:04:05Z')),
    connect: (): OriginResolution => (refused ? { refused } : { transport, context: 'staging', user: 'alice' }),
    watched: () => watched,
    drain: async () => undefined,
  });

  beforeEach(() => {
    said = [];
    sent = [];
    writes = [];
    server = undefined;
    refused = undefined;
    errorAnswers = [];
    watched = undefined;
    journal = new WriteJournal({ entries: () => [], entry: () => undefined, addHandler: () => ({ dispose: () => undefined }) });
  });
  afterEach(() => journal.dispose());

  it('asks, confirms, then writes through the origin and says it was accepted', async () => {
    await runActionFlow('scale', pinned(deployment('10', 2)), deps());
    assert.deepEqual(said, [
      'ask: Scale Deployment shop/web | Replicas (now 2) | 2',
      'confirm: Scale Deployment shop/web from 2 to 3 replicas?',
      'status: scale Deployment shop/web: accepted by the server; its row says when the watch shows it',
    ]);
    assert.deepEqual(sent.map((r) => `${r.method} ${r.path} ${r.body}`), ['PATCH /apis/apps/v1/namespaces/shop/deployments/web/scale {"metadata":{"uid":"uid-1","resourceVersion":"10"},"spec":{"replicas":3}}']);
  });

  it('W01: the context switched while the confirmation was up: nothing is sent, the refusal names both contexts', async () => {
    const words = 'This object is from context "staging" (server https://staging.example:6443); the current context is now "prod" (server https://prod.example:6443): nothing was sent.';
    const d = deps();
    await runActionFlow('scale', pinned(deployment('10', 2)), {
      ...d,
      dialogs: { ...dialogs, confirmPlan: async (plan) => (said.push(`confirm: ${plan.title}`), (refused = words), 'confirmed') },
    });
    assert.deepEqual(said, [
      'ask: Scale Deployment shop/web | Replicas (now 2) | 2',
      'confirm: Scale Deployment shop/web from 2 to 3 replicas?',
      `error: Scale Deployment shop/web: ${words} The plan was not sent to the new context; run the action again on the object as the new context shows it.`,
    ]);
    assert.deepEqual(sent, []);
    assert.deepEqual(journal.records(), []);
  });

  it('W01: the origin no longer resolves when the action starts: nothing is asked', async () => {
    refused = 'This object is from context "staging" (server https://staging.example:6443), which cannot be used now: nothing was sent, and nothing will be sent to another cluster.';
    await runActionFlow('scale', pinned(deployment('10', 2)), deps());
    assert.deepEqual(said, [`warning: Scale Deployment shop/web: ${refused}`]);
    assert.deepEqual(sent, []);
  });

  it('W09: the object moved (409): the plan is made again from the newest version and confirmed again before anything else is sent', async () => {
    writes = [new ApiError({ code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified' }, 'http', 409)];
    watched = deployment('12', 4);
    await runActionFlow('scale', pinned(deployment('10', 2)), deps());
    assert.deepEqual(said, [
      'ask: Scale Deployment shop/web | Replicas (now 2) | 2',
      'confirm: Scale Deployment shop/web from 2 to 3 replicas?',
      'info: Deployment shop/web changed on the server (now at resourceVersion 12) after the plan was made: nothing was sent. Here is the plan again, made from the newest version.',
      'confirm: Scale Deployment shop/web from 4 to 3 replicas?',
      'status: scale Deployment shop/web: accepted by the server; its row says when the watch shows it',
    ]);
    assert.equal(sent.length, 2);
  });

  it('W09: a failed JSON-patch test (422) is "moved" too; the watch lagging, the newest version is read from the server; re-created meanwhile (another uid), it is refused', async () => {
    writes = [new ApiError({ code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request: testing value /metadata/resourceVersion failed: test failed' }, 'http', 422)];
    watched = deployment('10', 2);
    server = { ...deployment('15', 1, 'uid-2'), metadata: { ...deployment('15', 1, 'uid-2').metadata, creationTimestamp: '2026-01-02T03:00:00Z' } };
    await runActionFlow('scale', pinned(deployment('10', 2)), deps());
    assert.deepEqual(said.slice(2), ['error: Could not scale Deployment shop/web: it is a new object (deleted and created again, created at 2026-01-02 03:00:00 UTC), not the one the plan was made for. Nothing was sent.']);
    assert.equal(sent.length, 1);
  });

  it('W09: deleted meanwhile: refused, nothing else sent', async () => {
    writes = [new ApiError({ code: 409, reason: 'Conflict', message: 'the UID in the precondition does not match' }, 'http', 409)];
    await runActionFlow('scale', pinned(deployment('10', 2)), deps());
    assert.deepEqual(said.slice(2), ['error: Could not scale Deployment shop/web: it was deleted on the server after the plan was made. Nothing was sent.']);
    assert.equal(sent.length, 1);
  });

  it('W16: unreachable: the plan is kept with the reason, nothing queued; sent again only when the user asks (Try Again…), after confirming again', async () => {
    writes = [new TransportError('connect ECONNREFUSED 127.0.0.1:6443', 'ECONNREFUSED')];
    errorAnswers = [TRY_AGAIN];
    await runActionFlow('scale', pinned(deployment('10', 2)), deps());
    assert.deepEqual(said, [
      'ask: Scale Deployment shop/web | Replicas (now 2) | 2',
      'confirm: Scale Deployment shop/web from 2 to 3 replicas?',
      `error: Could not scale Deployment shop/web. The cluster could not be reached (connect ECONNREFUSED 127.0.0.1:6443); nothing was written. The plan is kept and nothing is queued: Try Again… shows it again to send it when you want. [${TRY_AGAIN}]`,
      'confirm: Scale Deployment shop/web from 2 to 3 replicas?',
      'status: scale Deployment shop/web: accepted by the server; its row says when the watch shows it',
    ]);
    assert.equal(sent.length, 2);

    said = [];
    sent = [];
    writes = [new ApiError({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' }, 'http', 401)];
    errorAnswers = [undefined];
    await runActionFlow('scale', pinned(deployment('10', 2)), deps());
    assert.match(said.at(-1) ?? '', /^error: Could not scale Deployment shop\/web\. The server did not accept the credentials of this context \(401 Unauthorized\); nothing was written\. The plan is kept and nothing is queued/);
    assert.equal(sent.length, 1, 'not sent again unasked');
  });

  it('the access reviews say no: refused in words before any question', async () => {
    const d = deps();
    const access = { can: async () => ({ allowed: false }) };
    await runActionFlow('scale', pinned(deployment('10', 2)), { ...d, connect: () => ({ transport, context: 'staging', user: 'alice', access: access as never }) });
    assert.deepEqual(said, [
      'warning: Not allowed: user "alice" may not patch deployments/scale (apps) in namespace "shop" (context staging). The cluster\'s access rules (RBAC) do not allow it, so Scale is not offered.',
    ]);
    assert.deepEqual(sent, []);
  });
});
