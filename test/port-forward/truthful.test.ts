import assert from 'node:assert/strict';
import * as net from 'node:net';
import { StreamsRig, get, heldConnection, until } from './rig';

/**
 * Forwards that tell the truth (issue 29, items 2 and 3; W14), through our real transport and
 * the manager's ad-hoc watches, against the local API server: its pods refuse a port they do not
 * declare with the kubelet's words (`… connect: connection refused`) on the error channel, as a
 * real kubelet does for a port nothing listens on.
 */
describe('port-forward: state and counts that follow what connections meet (local API server)', function () {
  this.timeout(120_000);
  let rig: StreamsRig;

  afterEach(async () => {
    await rig?.close();
  });

  /** A connection as curl makes one: a request, the whole answer, then close (the pod's keep-alive holds its side). */
  async function curl(port: number): Promise<string> {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.write('GET / HTTP/1.1\r\nHost: web\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n\r\n');
    await until(() => /\r\n\r\n.+\n/s.test(text), () => `the answer: ${JSON.stringify(text)}`);
    socket.destroy();
    return text.split('\r\n\r\n')[1];
  }

  /** A raw connection that sends `bytes`: what came back before the forward closed it. */
  async function raw(port: number, bytes: string): Promise<string> {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(bytes);
    await closed;
    return text;
  }

  it('U02 a forward whose pod refuses the port reads "failing: connection refused by pod … port 80", an HTTP client gets the promised 503, and it is ready again once a connection succeeds', async () => {
    rig = await StreamsRig.start();
    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 80 }]);
    // Declares no port, so any may be asked for (as kubectl allows), and nothing listens on 80.
    rig.pod('web-1', { app: 'web' }, { ports: [] });
    const f = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 });
    const events: string[] = [];
    f.onEvent((line) => events.push(line));
    await f.start();
    assert.equal(f.status.phase, 'ready', 'nothing is known of the port before a connection tries it');
    const answer = await get(f.status.localPort);
    assert.equal(answer.status, 503, `curl gets the README's 503, not an empty reply: ${JSON.stringify(answer)}`);
    assert.match(answer.body, /^Kube Watch port-forward svc\/web 80: connection refused by pod web-1 port 80\n.*connect: connection refused/);
    await until(() => f.status.phase === 'failing', () => `failing: ${JSON.stringify(f.status)}`);
    assert.equal(f.status.reason, 'connection refused by pod web-1 port 80');
    assert.deepEqual([f.status.failed, f.status.served, f.status.interrupted, f.status.open], [1, 0, 0, 0]);
    assert.equal(events.length, 1, events.join('\n'));
    assert.match(events[0], /^failing: connection refused by pod web-1 port 80 \(pod web-1: error forwarding port 80 to pod .*connection refused/);
    // Not HTTP: nothing can carry a reason, so the connection is reset, with nothing sent.
    assert.equal(await raw(f.status.localPort, 'PING\r\n'), '');
    await until(() => f.status.failed === 2, () => `two failed: ${JSON.stringify(f.status)}`);
    assert.equal(f.status.phase, 'failing');
    // The pod now listens on 80: the next connection succeeds and the forward is ready again.
    const pod = rig.server.get('pods', 'shop', 'web-1')!;
    rig.server.update('pods', { ...pod, spec: { containers: [{ name: 'app', image: 'web:1', ports: [{ containerPort: 80 }] }] } });
    assert.deepEqual(await get(f.status.localPort), { status: 200, body: 'web-1\n' });
    await until(() => f.status.phase === 'ready', () => `ready again: ${JSON.stringify(f.status)}`);
    assert.equal(f.status.reason, undefined);
    assert.equal(f.status.failed, 2);
    assert.deepEqual(events.slice(1), ['ready again: pod web-1 took a connection'], 'the log tells when it starts failing and when it stops, not each connection');
  });

  it('U02 a Service whose numeric target port its pods do not declare: connections go to the pod as kubectl sends them, and its refusal reads failing with a 503 (not "waiting for a pod" while pods run); a named port no pod has is said while waiting', async () => {
    rig = await StreamsRig.start();
    rig.service('web', { app: 'web' }, [{ port: 81, targetPort: 81 }]);
    rig.service('named', { app: 'web' }, [{ port: 82, targetPort: 'metrics' }]);
    // Declares 80 only: nothing listens on 81, and no port is named metrics.
    rig.pod('web-1', { app: 'web' }, { ports: [{ containerPort: 80 }] });
    const f = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 81, localPort: 0 });
    await f.start();
    assert.equal(f.status.phase, 'ready', `the running pod takes connections: ${JSON.stringify(f.status)}`);
    const answer = await get(f.status.localPort);
    assert.equal(answer.status, 503, JSON.stringify(answer));
    assert.match(answer.body, /^Kube Watch port-forward svc\/web 81: connection refused by pod web-1 port 81\n/);
    await until(() => f.status.phase === 'failing', () => `failing: ${JSON.stringify(f.status)}`);
    assert.equal(f.status.reason, 'connection refused by pod web-1 port 81');
    const n = rig.forward({ kind: 'Service', namespace: 'shop', name: 'named', port: 82, localPort: 0 });
    await n.start();
    await until(() => n.status.phase === 'waiting', () => `waiting: ${JSON.stringify(n.status)}`);
    assert.equal(n.status.reason, 'no running pod of svc/named 82 has its port: pod web-1 has no port named "metrics" (its ports: 80)');
  });

  it('U02 a stream the server will not open (pods/portforward refused mid-forward): failing with the server\'s words, an HTTP client gets a 503 that says them, and ready again once one opens', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await f.start();
    rig.server.podStreams.forbid('portforward');
    const answer = await get(f.status.localPort);
    assert.equal(answer.status, 503, JSON.stringify(answer));
    assert.match(answer.body, /^Kube Watch port-forward pod\/web-1 8080: connections to pod web-1 port 8080 fail: pods "web-1" is forbidden: User "kube-watch-test" cannot get resource "pods\/portforward"/);
    assert.equal(f.status.phase, 'failing');
    assert.match(f.status.reason ?? '', /^connections to pod web-1 port 8080 fail: pods "web-1" is forbidden/);
    assert.equal(await raw(f.status.localPort, 'PING\r\n'), '', 'not HTTP: reset');
    await until(() => f.resources.sockets === 0 && f.resources.timers === 0, () => `nothing held: ${JSON.stringify(f.resources)}`);
    rig.server.podStreams.forbid('portforward', false);
    assert.deepEqual(await get(f.status.localPort), { status: 200, body: 'web-1\n' });
    await until(() => f.status.phase === 'ready', () => `ready again: ${JSON.stringify(f.status)}`);
    await until(() => f.status.served === 1, () => `served: ${JSON.stringify(f.status)}`);
    assert.equal(f.status.failed, 2);
  });

  it('U03 counters: 6 sequential curl-like connections then a pod deletion with 2 in flight: exactly 6 served, 2 cut, never more open than in use', async () => {
    rig = await StreamsRig.start();
    // The pod's server holds an idle keep-alive connection as nginx does (75 s): each curl-like client closes its side first.
    rig.server.podStreams.ports.keepAliveMs = 600_000;
    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 8080 }]);
    rig.pod('web-1', { app: 'web' });
    const f = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 });
    const events: string[] = [];
    f.onEvent((line) => events.push(line));
    await f.start();
    const N = 6;
    for (let i = 1; i <= N; i++) {
      assert.equal(await curl(f.status.localPort), 'web-1\n');
      await until(() => f.status.served === i && f.status.open === 0, () => `connection ${i} served and none open: ${JSON.stringify(f.status)}`);
    }
    const K = 2;
    const held = [await heldConnection(f.status.localPort), await heldConnection(f.status.localPort)];
    await until(() => f.status.open === K, () => `${K} open: ${JSON.stringify(f.status)}`);
    rig.pod('web-2', { app: 'web' });
    rig.server.delete('pods', 'shop', 'web-1');
    await Promise.all(held.map((h) => h.closed));
    await until(() => f.status.pod === 'web-2' && f.status.interrupted === K, () => `${K} cut: ${JSON.stringify(f.status)}`);
    await until(() => f.resources.streams === 0, () => `the streams of web-1 all ended: ${JSON.stringify(f.resources)}`);
    const s = f.status;
    assert.deepEqual({ served: s.served, interrupted: s.interrupted, failed: s.failed, refused: s.refused, open: s.open, switches: s.switches }, { served: N, interrupted: K, failed: 0, refused: 0, open: 0, switches: 1 });
    assert.deepEqual(events, [`pod web-1 was deleted: new connections go to pod web-2; ${K} connections in flight ended`]);
    assert.equal(await curl(f.status.localPort), 'web-2\n');
    await until(() => f.status.served === N + 1 && f.status.open === 0, () => `one more served: ${JSON.stringify(f.status)}`);
  });

  it('W14 a pod Running but not Ready (a failing readiness probe) can be forwarded to, as kubectl allows; a Service prefers a Ready pod and moves to one when it appears', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' }, { ready: false });
    const pod = rig.forward({ kind: 'Pod', namespace: 'shop', name: 'web-1', port: 8080, localPort: 0 });
    await pod.start();
    assert.deepEqual([pod.status.phase, pod.status.pod, pod.status.podReady], ['ready', 'web-1', false]);
    assert.equal(pod.status.reason, 'pod web-1 is Running but not Ready');
    assert.deepEqual(await get(pod.status.localPort), { status: 200, body: 'web-1\n' });

    rig.service('web', { app: 'web' }, [{ port: 80, targetPort: 8080 }]);
    const svc = rig.forward({ kind: 'Service', namespace: 'shop', name: 'web', port: 80, localPort: 0 });
    await svc.start();
    assert.deepEqual([svc.status.phase, svc.status.pod, svc.status.podReady], ['ready', 'web-1', false], 'no Ready pod: the Running one is used, not a wait');
    assert.equal(svc.status.reason, 'pod web-1 is Running but not Ready (no Ready pod of svc/web 80)');
    assert.equal((await get(svc.status.localPort)).body, 'web-1\n');
    rig.pod('web-2', { app: 'web' });
    await until(() => svc.status.pod === 'web-2', () => `moved to the Ready pod: ${JSON.stringify(svc.status)}`);
    assert.equal(svc.status.podReady, true);
    assert.equal(svc.status.reason, undefined);
    assert.equal((await get(svc.status.localPort)).body, 'web-2\n');
    // The Ready pod stops being ready and web-1 is Running too: neither is Ready, so it stays where it is.
    rig.setReady('web-2', false);
    await until(() => svc.status.podReady === false, () => `web-2 not ready: ${JSON.stringify(svc.status)}`);
    assert.equal(svc.status.pod, 'web-2');
    // A pod that is not Running (Pending, Failed) is never used: then connections wait.
    rig.setReady('web-1', false, 'shop', 'Failed');
    rig.setReady('web-2', false, 'shop', 'Pending');
    await until(() => svc.status.phase === 'waiting', () => `waiting: ${JSON.stringify(svc.status)}`);
    assert.equal(svc.status.reason, 'no running pod of svc/web 80');
  });
});
