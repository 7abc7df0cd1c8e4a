import assert from 'node:assert/strict';
import type { ForwardStatus } from '../../src/port-forward';
import { browserUrl, bytesText, forwardRow } from '../../src/ui/port-forward/forward-rows';
import { parseLocalPort, portChoicesOf } from '../../src/ui/port-forward/port-choices';
import { sessionEndText, sessionLength } from '../../src/ui/shell/session-text';
import type { KubeObject } from '../../src/informer';

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('port-forward and shell text: what the view and the terminals say', () => {
  const status: ForwardStatus = { phase: 'ready', since: 0, localAddress: '127.0.0.1', localPort: 8080, pod: 'web-1', podPort: 80, open: 2, served: 14, interrupted: 1, refused: 0, failed: 0, bytesIn: 1_200_000, bytesOut: 300, switches: 1 };

  it('a forward row: the state first in its label (a narrow view never cuts it), then the pod, counts and bytes; the tooltip has every count', () => {
    const row = forwardRow('svc/web 80', 'kind-dev', status, 61_000);
    assert.equal(row.label, 'ready · svc/web 80 → :8080');
    assert.equal(row.description, 'pod web-1 · 2 open · 14 served · 1 cut by a pod switch · 1.2 MB');
    assert.match(row.tooltip, /ready for 61s/);
    assert.match(row.tooltip, /2 open, 14 served, 1 cut by a pod switch, 0 refused \(no running pod\), 0 failed/);
    assert.equal(row.contextValue, 'portForward');
    const waiting = forwardRow('svc/web 80', '', { ...status, phase: 'waiting', reason: 'no running pod of svc/web 80', pod: undefined }, 0);
    assert.equal(waiting.label, 'waiting for a pod · svc/web 80 → :8080');
    assert.equal(forwardRow('svc/web 80', '', { ...status, phase: 'stopped' }, 0).label.split(' · ')[0], 'stopped');
    assert.equal(bytesText(999), '999 B');
    assert.equal(bytesText(12_345_678), '12 MB');
    assert.equal(browserUrl({ localAddress: '0.0.0.0', localPort: 80 }), 'http://localhost:80/');
  });

  it('U02 a forward whose pod refuses reads failing in the warning colour, with why and how many failed; a pod Running but not Ready is named so (W14)', () => {
    const failing = forwardRow('svc/web 80', '', { ...status, phase: 'failing', reason: 'connection refused by pod web-1 port 80', open: 0, served: 0, interrupted: 0, failed: 52 }, 0);
    assert.equal(failing.label, 'failing · svc/web 80 → :8080');
    assert.equal(failing.description, 'connection refused by pod web-1 port 80 · 0 open · 0 served · 52 failed · 1.2 MB');
    assert.deepEqual(failing.icon, { id: 'warning', color: 'list.warningForeground' });
    const notReady = forwardRow('pod/web-1 80', '', { ...status, podReady: false, reason: 'pod web-1 is Running but not Ready' }, 0);
    assert.match(notReady.label, /^ready · pod\/web-1 80 → /);
    assert.match(notReady.description, /^pod web-1 \(not Ready\) · /);
    assert.match(notReady.tooltip, /- pod: web-1:80 \(Running, not Ready\)/);
  });

  it('port choices from a Service, a Pod and a workload; the local port as typed', () => {
    const svc = { metadata: { name: 'web' }, spec: { ports: [{ port: 80, targetPort: 'http', name: 'http' }, { port: 53, protocol: 'UDP' }] } } as unknown as KubeObject;
    assert.deepEqual(portChoicesOf('Service', svc), [{ label: '80/http', description: '→ pod port http', port: 80 }]);
    const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'app', ports: [{ containerPort: 8080, name: 'http' }] }] } } as unknown as KubeObject;
    assert.deepEqual(portChoicesOf('Pod', pod), [{ label: '8080/http', description: 'container app', port: 8080 }]);
    assert.deepEqual(parseLocalPort(''), { exact: false });
    assert.deepEqual(parseLocalPort('0'), { port: 0, exact: false });
    assert.deepEqual(parseLocalPort('9000'), { port: 9000, exact: true });
    assert.equal(typeof parseLocalPort('http'), 'string');
    assert.equal(typeof parseLocalPort('70000'), 'string');
  });

  it('a session that dropped says how long it lasted and what became of the pod, and offers a new one; an exit says its code', () => {
    assert.equal(sessionLength(800), '0.8 s');
    assert.equal(sessionLength(200_000), '3m20s');
    const dropped = plain(sessionEndText({ dropped: 'the connection was cut', durationMs: 12_400, pod: { kind: 'replaced', by: 'web-2' } }, 'web-1', true));
    assert.match(dropped, /── the connection dropped after 12\.4 s \(the connection was cut\); a shell cannot be resumed ──/);
    assert.match(dropped, /── pod web-1 was replaced by pod web-2 ──/);
    assert.match(dropped, /Press Enter to start a new session \(in pod web-2\)/);
    assert.match(plain(sessionEndText({ dropped: 'x', durationMs: 1, pod: { kind: 'gone' } }, 'web-1', true)), /pod web-1 no longer exists/);
    const exited = plain(sessionEndText({ result: { exitCode: 42 }, durationMs: 300 }, 'web-1', false));
    assert.match(exited, /── exited with code 42 after 0\.3 s ──/);
    assert.doesNotMatch(exited, /Press Enter/);
  });
});
