import assert from 'node:assert/strict';
import { seededRandom } from '../../src/base';
import type { KubeObject } from '../../src/informer';
import { OriginTransport } from '../../src/manager';
import { DebugSession, EphemeralContainersUnsupported, DebugTargetMoved, type DebugSessionOptions } from '../../src/debug';
import { ShellSession, StreamRefused, type SessionEnd } from '../../src/shell';
import { streamRefusalWords, WriteJournal } from '../../src/actions';
import { RowActions } from '../../src/ui/actions';
import { StreamsRig, until } from '../port-forward/rig';

/**
 * Debug Pod… (issue 32, X15 and X16) through our real transport, pinned to the pod's origin,
 * against the local API server's `ephemeralcontainers` subresource (the real server's
 * validation), its simulated kubelet (which starts the container: a real `sh` under a
 * pseudo-terminal) and `attach` over WebSocket, over HTTP/2 and HTTP/1.1.
 */
const PROTOCOLS = [
  { http2: true, label: 'HTTP/2' },
  { http2: false, label: 'HTTP/1.1' },
] as const;

describe('debug: ephemeral debug containers (local API server)', function () {
  this.timeout(120_000);
  let rig: StreamsRig | undefined;
  const sessions: Array<{ dispose(): void }> = [];

  afterEach(async () => {
    for (const s of sessions.splice(0)) s.dispose();
    await rig?.close();
    rig = undefined;
  });

  function distroless(r: StreamsRig, name = 'app-1'): KubeObject {
    return r.pod(name, { app: 'app' }, { annotations: { 'kube-watch.test/distroless': 'true' } });
  }

  function debugSession(r: StreamsRig, pod: KubeObject, options: Partial<DebugSessionOptions> = {}) {
    const spec = r.manager.contextSpecOf(r.entryId)!;
    const origin = r.manager.originOf(r.entryId, pod);
    const s = new DebugSession({
      transport: new OriginTransport(origin, (o) => r.manager.resolveOrigin(o), `shop/${pod.metadata.name}`),
      clock: r.clock,
      watch: (request) => r.manager.watchAdHoc({ spec, ...request }),
      pod,
      request: { image: 'busybox', target: 'app' },
      random: seededRandom(32),
      ...options,
    });
    sessions.push(s);
    let text = '';
    const progress: string[] = [];
    s.onOutput((c) => (text += c.data.toString('utf8')));
    s.onProgress((line) => progress.push(line));
    const end = new Promise<SessionEnd>((resolve) => s.onEnd(resolve));
    return { s, out: () => text, progress, end };
  }

  for (const { http2, label } of PROTOCOLS) {
    it(`X15 ${label}: Debug Pod on a distroless pod sends the ephemeralcontainers patch as kubectl does (pinned by uid), the watch shows the container start, and the attached terminal answers a typed command`, async () => {
      rig = await StreamsRig.start({ server: { http2 } });
      const pod = distroless(rig);
      // The image has no shell: Open Shell cannot help here.
      const shell = new ShellSession({ namespace: 'shop', pod: 'app-1' }, { transport: rig.manager.transportOf(rig.entryId)!, clock: rig.clock, tty: true });
      sessions.push(shell);
      await assert.rejects(shell.start(), /no shell in pod shop\/app-1/);

      const { s, out, progress, end } = debugSession(rig, pod);
      const release = rig.server.ephemeral.holdStarts();
      const started = s.start();
      await until(() => progress.some((l) => /\(ContainerCreating\)…$/.test(l)), () => `the watch shows the container waiting: ${progress.join(' | ')}`);
      assert.equal(s.open, false, 'not attached while the container waits');
      release();
      await started;
      const name = s.container!;
      assert.match(name, /^debugger-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      const patch = rig.server.requests.find((r) => r.method === 'PATCH' && r.path === '/api/v1/namespaces/shop/pods/app-1/ephemeralcontainers');
      assert.ok(patch, 'the subresource was patched');
      assert.equal(patch.contentType, 'application/strategic-merge-patch+json');
      assert.equal(patch.protocol, http2 ? 'h2' : 'http/1.1');
      assert.equal(
        patch.body,
        JSON.stringify({
          metadata: { uid: pod.metadata.uid },
          spec: { ephemeralContainers: [{ image: 'busybox', name, resources: {}, securityContext: { capabilities: { add: ['SYS_PTRACE'] } }, stdin: true, targetContainerName: 'app', terminationMessagePolicy: 'File', tty: true }] },
        }),
      );
      // The watch showed it waiting, then running; only then was it attached.
      assert.equal(progress[0], `Adding debug container ${name} (image busybox, in the process namespace of container app) to pod shop/app-1…`);
      assert.equal(progress.at(-2), `Waiting for debug container ${name} to start (ContainerCreating)…`);
      assert.match(progress.at(-1)!, /^Attached\./);
      const patchAt = rig.server.requests.indexOf(patch);
      const attach = rig.server.requests.findIndex((r) => r.path === '/api/v1/namespaces/shop/pods/app-1/attach');
      assert.ok(attach > patchAt, 'attached after the patch');
      assert.deepEqual(rig.server.requests[attach].query, { container: name, stdin: 'true', stdout: 'true', stderr: 'false', tty: 'true' });
      const stored = rig.server.get('pods', 'shop', 'app-1')!;
      assert.equal((stored.status as { ephemeralContainerStatuses: Array<{ name: string; state: { running?: object } }> }).ephemeralContainerStatuses[0].state.running !== undefined, true);
      assert.equal(s.protocol, 'v5.channel.k8s.io');

      s.writeStdin('echo debug-$((40+2))\n');
      await until(() => /debug-42/.test(out()), () => `the debug container's shell answers: ${JSON.stringify(out())}`);
      s.resize(100, 30);
      await until(() => rig!.server.podStreams.resizes.some((r) => r.width === 100 && r.height === 30), () => 'the resize reached the container');

      // A second Debug Pod on the same pod: $setElementOrder keeps the first container, as kubectl's patch does.
      const second = debugSession(rig, rig.server.get('pods', 'shop', 'app-1') as unknown as KubeObject, { request: { image: 'nicolaka/netshoot:v0.13' } });
      await second.s.start();
      const patches = rig.server.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/ephemeralcontainers'));
      assert.equal(patches.length, 2);
      const body = JSON.parse(patches[1].body!) as { spec: Record<string, unknown> };
      assert.deepEqual(body.spec['$setElementOrder/ephemeralContainers'], [{ name }, { name: second.s.container }]);
      assert.equal((body.spec.ephemeralContainers as unknown[]).length, 1);

      // Typing exit ends the container's shell: the session says how.
      s.writeStdin('exit 0\n');
      const ended = await end;
      assert.deepEqual(ended.result, { exitCode: 0 });
      await until(() => rig!.server.podStreams.runningContainers().length === 1, () => 'only the second container runs');
      second.s.dispose();
      await until(() => rig!.server.podStreams.openStreams() === 0, () => 'no stream left open');
      assert.equal(rig.manager.adHocWatchCount, 0, 'the pod watches of both sessions stopped');
    });
  }

  it('X16 Debug Pod is offered only where the access review allows pods/ephemeralcontainers (patch) and pods/attach (create, get); a refusal is said in words', async () => {
    rig = await StreamsRig.start();
    const pod = distroless(rig);
    const journal = new WriteJournal(rig.manager);
    const rows = new RowActions(rig.manager, journal);
    const r = rig;
    try {
      const entryId = r.entryId;
      // The pod's row, as the tree shows it (a Pod row of this context).
      const target = { context: r.manager.entry(entryId)!.context, type: { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true }, namespace: 'shop', name: 'app-1', object: pod } as unknown as Parameters<RowActions['offeredStreams']>[1];
      const offered = () => rows.offeredStreams(entryId, target);
      const base = [{ verbs: ['get', 'list', 'watch', 'create'], apiGroups: ['*'], resources: ['*'] }];
      r.server.access.setRules([...base.map((b) => ({ ...b, resources: ['pods', 'services', 'selfsubjectaccessreviews', 'pods/exec', 'pods/portforward', 'pods/attach'] }))]);
      offered();
      await until(() => offered().includes('shell'), () => `the answers came: ${offered().join(', ')}`);
      assert.deepEqual(offered(), ['forward', 'shell'], 'no patch on pods/ephemeralcontainers: Debug Pod is not offered');
      r.server.access.setRules([...base.map((b) => ({ ...b, resources: ['pods', 'services', 'selfsubjectaccessreviews', 'pods/exec', 'pods/portforward', 'pods/attach'] })), { verbs: ['patch'], apiGroups: [''], resources: ['pods/ephemeralcontainers'] }]);
      r.manager.accessReviewsOf(entryId)!.invalidate();
      await until(() => offered().includes('debug'), () => `offered once allowed: ${offered().join(', ')}`);
      assert.deepEqual(offered(), ['forward', 'shell', 'debug']);

      // Allowed to patch but not to attach: the container is added, the attach refused in words.
      r.server.access.setRules([...base.map((b) => ({ ...b, resources: ['pods', 'services', 'selfsubjectaccessreviews'] })), { verbs: ['patch'], apiGroups: [''], resources: ['pods/ephemeralcontainers'] }]);
      r.manager.accessReviewsOf(entryId)!.invalidate();
      await until(() => !offered().includes('debug'), () => `no longer offered: ${offered().join(', ')}`);
      const refused = debugSession(r, pod);
      const err = await refused.s.start().then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof StreamRefused, String(err));
      assert.match(streamRefusalWords('debug', 'shop', err.serverMessage), /may not attach to containers of pods \(pods\/attach\) in namespace shop\. .*granting create and get on pods\/attach/);
      // Not allowed to patch: refused before anything was added.
      r.server.access.setRules(base.map((b) => ({ ...b, resources: ['pods', 'services'] })));
      const unpatched = debugSession(r, r.server.get('pods', 'shop', 'app-1') as unknown as KubeObject);
      const err2 = await unpatched.s.start().then(() => undefined, (e: unknown) => e);
      assert.ok(err2 instanceof StreamRefused, String(err2));
      assert.match(streamRefusalWords('debug', 'shop', err2.serverMessage), /may not add debug containers to pods \(pods\/ephemeralcontainers\) in namespace shop\. .*granting patch on pods\/ephemeralcontainers/);
    } finally {
      rows.dispose();
      journal.dispose();
    }
  });

  for (const { http2, label } of PROTOCOLS) {
    it(`X16 ${label}: a server without the ephemeralcontainers subresource (404) is said in words; a pod re-created under the same name (another uid) is refused and gets nothing`, async () => {
      rig = await StreamsRig.start({ server: { http2 } });
      const pod = distroless(rig);
      rig.server.ephemeral.supported = false;
      const unsupported = debugSession(rig, pod);
      const err = await unsupported.s.start().then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof EphemeralContainersUnsupported, String(err));
      assert.match(err.message, /^This cluster does not support ephemeral containers: its API server has no pods\/ephemeralcontainers subresource \(it answered "the server could not find the requested resource"\)\./);
      rig.server.ephemeral.supported = true;

      // The pod is deleted and created again under the same name; the row's pod (old uid) is debugged.
      rig.server.delete('pods', 'shop', 'app-1');
      const fresh = distroless(rig);
      assert.notEqual(fresh.metadata.uid, pod.metadata.uid);
      const moved = debugSession(rig, pod);
      const err2 = await moved.s.start().then(() => undefined, (e: unknown) => e);
      assert.ok(err2 instanceof DebugTargetMoved, String(err2));
      assert.match(err2.message, /^Pod shop\/app-1 is not the pod you chose: it was deleted and created again under the same name \(another uid\) since it was shown\. Nothing was added/);
      assert.equal(((rig.server.get('pods', 'shop', 'app-1')!.spec as { ephemeralContainers?: unknown[] }).ephemeralContainers ?? []).length, 0, 'the new pod got no container');

      // The server's own validation, in its words: an image it refuses, an existing container changed or removed.
      const bad = debugSession(rig, fresh, { request: { image: 'busybox', target: 'nope' } });
      await assert.rejects(bad.s.start(), { message: 'The server refused the debug container: Pod "app-1" is invalid: spec.ephemeralContainers[0].targetContainerName: Not found: "nope"' });
      const ok = debugSession(rig, fresh);
      await ok.s.start();
      const change = await rig.manager.transportOf(rig.entryId)!.write!({ method: 'PATCH', path: '/api/v1/namespaces/shop/pods/app-1/ephemeralcontainers', body: JSON.stringify({ spec: { ephemeralContainers: [] } }), contentType: 'application/merge-patch+json' }, new AbortController().signal).then(() => undefined, (e: unknown) => e as Error);
      assert.equal(change?.message, `Pod "app-1" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "${ok.s.container}" may not be removed\n`);
    });
  }
});
