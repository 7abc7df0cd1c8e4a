import assert from 'node:assert/strict';
import { headerLines, logChoicesOf, logPrefix, markerTone, terminalLine, terminalMarker, terminalName } from '../../src/ui/logs';

const pod = (spec: object, status: object = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'shop', name: 'web-1' }, spec, status });

describe('Follow Logs view model (src/ui/logs)', () => {
  it('a single container without a terminated run is the only choice', () => {
    const choices = logChoicesOf(pod({ containers: [{ name: 'main' }] }, { containerStatuses: [{ name: 'main', restartCount: 0 }] }));
    assert.deepEqual(choices.map((c) => [c.label, c.containers, c.previous]), [['main', ['main'], false]]);
  });

  it('several containers: previous runs of restarted containers first (with how they ended), then all containers, init containers marked', () => {
    const choices = logChoicesOf(
      pod(
        { containers: [{ name: 'app' }, { name: 'proxy' }], initContainers: [{ name: 'migrate' }] },
        {
          containerStatuses: [
            { name: 'app', restartCount: 3, lastState: { terminated: { exitCode: 1 } } },
            { name: 'proxy', restartCount: 0 },
          ],
          initContainerStatuses: [{ name: 'migrate', restartCount: 0 }],
        },
      ),
    );
    assert.deepEqual(
      choices.map((c) => [c.label, c.description, c.containers.join(','), c.previous]),
      [
        ['app (previous)', 'the last terminated run, before restart 3: exit code 1', 'app', true],
        ['All containers', 'app, proxy, migrate', 'app,proxy,migrate', false],
        ['app', undefined, 'app', false],
        ['proxy', undefined, 'proxy', false],
        ['migrate', 'init container', 'migrate', false],
      ],
    );
  });

  it('a pod without containers (bad input) gives no choice and no throw', () => {
    assert.deepEqual(logChoicesOf(undefined), []);
    assert.deepEqual(logChoicesOf({ spec: { containers: 'x' } }), []);
  });

  it('terminal lines end in CRLF, with kubectl --prefix coloured per container; a stray CR cannot overwrite', () => {
    assert.equal(terminalLine('hello'), 'hello\r\n');
    assert.equal(terminalLine('a\rb'), 'a\r\nb\r\n');
    assert.equal(logPrefix('web-1', 'app'), '[pod/web-1/app] ');
    assert.equal(terminalLine('x', logPrefix('web-1', 'app'), 0), '\x1b[36m[pod/web-1/app] \x1b[0mx\r\n');
    assert.notEqual(terminalLine('x', 'p ', 0), terminalLine('x', 'p ', 1));
  });

  it('markers: a gap is dim, possible loss yellow, a stop red', () => {
    assert.equal(markerTone('reconnected, 3 s gap'), 'info');
    assert.equal(terminalMarker('reconnected, 3 s gap'), '\x1b[2m── reconnected, 3 s gap ──\x1b[0m\r\n');
    assert.equal(markerTone('reconnected, 3 s gap; the container restarted meanwhile: lines written before the restart may have been lost'), 'warning');
    assert.equal(markerTone('stopped: pods "x" not found'), 'error');
    assert.match(terminalMarker('stopped: gone'), /^\x1b\[31m/);
  });

  it('names the terminal and states the kept lines', () => {
    assert.equal(terminalName('shop', 'web-1', ['app'], false), 'logs shop/web-1/app');
    assert.equal(terminalName('shop', 'web-1', ['app', 'proxy'], false), 'logs shop/web-1');
    assert.equal(terminalName('shop', 'web-1', ['app'], true), 'logs shop/web-1/app (previous)');
    assert.match(headerLines('shop', 'web-1', ['app'], false, 10000).join(''), /following shop\/web-1, container app; keeps the last 10,000 lines \(terminal\.integrated\.scrollback\)/);
  });
});
