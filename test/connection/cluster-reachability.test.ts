import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { ClusterReachability, type ReachabilityChange } from '../../src/connection/reachability/cluster-reachability';
import { handshakeProbe } from '../../src/connection/reachability/handshake-probe';
import { loadTlsMaterial } from '../support/apiserver/tls';
import { ManualClock } from '../support/manual-clock';

/** A probe the test settles by hand, counting how many run at once. */
function manualProbe() {
  const calls: { resolve: () => void; reject: (e: Error) => void; signal: AbortSignal }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const probe = (signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const end = () => inFlight--;
      calls.push({ resolve: () => (end(), resolve()), reject: (e) => (end(), reject(e)), signal });
      signal.addEventListener('abort', () => (end(), reject(new Error('aborted'))), { once: true });
    });
  return { probe, calls, get maxInFlight() { return maxInFlight; } };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('F50 the cluster reachability probe (unit)', () => {
  it('F50 probes only while failing and some watch waits, one at a time at a jittered 1 s cadence; success wakes every waiting watch at once and stops it', async () => {
    const clock = new ManualClock();
    const reach = new ClusterReachability();
    const p = manualProbe();
    reach.attachProbe(p.probe, clock);
    const changes: ReachabilityChange[] = [];
    reach.onChange((c) => changes.push(c));
    reach.reportFailure();
    clock.advance(10_000);
    assert.equal(p.calls.length, 0, 'no probe while nothing waits');
    const woken: string[] = [];
    const subs = ['a', 'b', 'c'].map((w) => reach.onReachable(() => woken.push(w)));
    assert.deepEqual(changes, [{ type: 'unreachable', probing: true }]);
    clock.advance(999); // ManualClock.random() is 0.5: exactly 1 s
    assert.equal(p.calls.length, 0);
    clock.advance(1);
    assert.equal(p.calls.length, 1, 'one probe for three waiting watches');
    clock.advance(1999);
    assert.equal(p.calls.length, 1, 'the next waits for the first to end');
    p.calls[0].reject(new Error('ECONNREFUSED'));
    await settle();
    clock.advance(1000);
    assert.equal(p.calls.length, 2);
    clock.advance(2000); // its 2 s deadline
    await settle();
    assert.ok(p.calls[1].signal.aborted, 'a probe not through in 2 s is abandoned');
    clock.advance(1000);
    assert.equal(p.calls.length, 3);
    p.calls[2].resolve();
    await settle();
    assert.deepEqual(woken, ['a', 'b', 'c'], 'every waiting watch woken at once');
    assert.deepEqual(changes.at(-1), { type: 'reachable', by: 'probe', waiting: 3 });
    assert.equal(reach.isFailing, false);
    clock.advance(60_000);
    assert.equal(p.calls.length, 3, 'no probe once reachable');
    assert.equal(p.maxInFlight, 1);
    for (const s of subs) s.dispose();
    reach.dispose();
  });

  it('F50 stops when nothing waits any more and on dispose; an HTTP answer ends the outage without a probe', async () => {
    const clock = new ManualClock();
    const reach = new ClusterReachability();
    const p = manualProbe();
    reach.attachProbe(p.probe, clock);
    reach.reportFailure();
    const sub = reach.onReachable(() => undefined);
    clock.advance(1000);
    assert.equal(p.calls.length, 1);
    sub.dispose();
    assert.ok(p.calls[0].signal.aborted, 'the probe in flight is abandoned when no watch waits');
    clock.advance(10_000);
    assert.equal(p.calls.length, 1);
    let woken = 0;
    reach.onReachable(() => woken++);
    clock.advance(1000);
    assert.equal(p.calls.length, 2);
    reach.reportAnswer();
    assert.equal(woken, 1);
    assert.ok(p.calls[1].signal.aborted);
    reach.reportFailure();
    reach.onReachable(() => woken++);
    clock.advance(1000);
    assert.equal(p.calls.length, 3);
    reach.dispose();
    assert.ok(p.calls[2].signal.aborted, 'dispose ends the probe');
    clock.advance(10_000);
    assert.equal(p.calls.length, 3);
    assert.equal(clock.pending(), 0, 'no timer left');
  });

  it('F50 a server whose handshake works but whose requests fail at the network again: each fruitless wake doubles the cadence (no wake storm)', async () => {
    const clock = new ManualClock();
    const reach = new ClusterReachability();
    const p = manualProbe();
    reach.attachProbe(p.probe, clock);
    const intervals: number[] = [];
    let last = clock.now();
    for (let round = 0; round < 6; round++) {
      reach.reportFailure(); // the woken watches failed again below HTTP
      reach.onReachable(() => undefined);
      const before = p.calls.length;
      while (p.calls.length === before) clock.advance(50);
      intervals.push(clock.now() - last);
      p.calls.at(-1)!.resolve();
      await settle();
      last = clock.now();
    }
    assert.deepEqual(intervals, [1000, 2000, 4000, 8000, 16000, 30000]);
    reach.reportAnswer(); // a real answer resets it
    reach.reportFailure();
    reach.onReachable(() => undefined);
    const start = clock.now();
    const before = p.calls.length;
    while (p.calls.length === before) clock.advance(50);
    assert.equal(clock.now() - start, 1000);
    reach.dispose();
  });

  it('F50 the probe is a TCP and TLS handshake that verifies the server with the cluster CA and sends nothing else: no HTTP request, no client certificate', async () => {
    const material = loadTlsMaterial();
    const seen: { data: number; peerCert: boolean }[] = [];
    const server = tls.createServer({ key: material.keyPem, cert: material.certPem, requestCert: true, rejectUnauthorized: false }, (socket) => {
      const record = { data: 0, peerCert: Object.keys(socket.getPeerCertificate() ?? {}).length > 0 };
      seen.push(record);
      socket.on('data', (d) => (record.data += d.length));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const probe = handshakeProbe({ server: new URL(`https://127.0.0.1:${port}`), route: { kind: 'direct' }, ca: async () => Buffer.from(material.caPem) })!;
      await probe(new AbortController().signal);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(seen.length, 1, 'one TLS connection');
      assert.deepEqual(seen[0], { data: 0, peerCert: false });
      // Another CA: the handshake fails as a request's would.
      const other = handshakeProbe({ server: new URL(`https://127.0.0.1:${port}`), route: { kind: 'direct' }, ca: async () => undefined })!;
      await assert.rejects(other(new AbortController().signal));
    } finally {
      await new Promise((r) => server.close(r));
    }
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const gone = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await assert.rejects(handshakeProbe({ server: new URL(`https://127.0.0.1:${gone}`), route: { kind: 'direct' } })!(new AbortController().signal), /ECONNREFUSED/);
    assert.equal(handshakeProbe({ server: new URL('https://example.invalid'), route: { kind: 'library-agent', proxy: new URL('socks5://127.0.0.1:1') } }), undefined, 'no probe through SOCKS');
  });
});
