import { strict as assert } from 'node:assert';
import { parseTimestampedLine, sinceTimeFor, ResumeDeduper, reconnectMarker, restartedBetween, containerRunOf } from '../../src/logs';

function shown(d: ResumeDeduper, raw: string[]): string[] {
  return raw.map(parseTimestampedLine).filter((l) => d.accept(l)).map((l) => l.text);
}

describe('pod log lines', () => {
  it('splits the RFC3339Nano prefix that timestamps=true adds', () => {
    const l = parseTimestampedLine('2026-11-23T02:40:01.123456789Z hello world\r');
    assert.equal(l.timestamp, '2026-11-23T02:40:01.123456789Z');
    assert.equal(l.text, 'hello world');
    assert.equal(l.at, Date.parse('2026-11-23T02:40:01.123Z'));
  });

  it('keeps a line without a timestamp as text', () => {
    const l = parseTimestampedLine('no timestamp here');
    assert.equal(l.timestamp, undefined);
    assert.equal(l.text, 'no timestamp here');
  });

  it('resumes from the whole second of the last line', () => {
    assert.equal(sinceTimeFor(Date.parse('2026-11-23T02:40:01.999Z')), '2026-11-23T02:40:01Z');
  });

  it('drops the overlapping second a resumed stream repeats, and nothing new', () => {
    const d = new ResumeDeduper();
    assert.deepEqual(
      shown(d, ['2026-11-23T02:40:00.5Z a', '2026-11-23T02:40:01.1Z b', '2026-11-23T02:40:01.7Z c']),
      ['a', 'b', 'c'],
    );
    assert.equal(sinceTimeFor(d.lastTimestampMs!), '2026-11-23T02:40:01Z');
    d.resume();
    assert.deepEqual(
      shown(d, ['2026-11-23T02:40:01.1Z b', '2026-11-23T02:40:01.7Z c', '2026-11-23T02:40:01.8Z d', '2026-11-23T02:40:02.0Z e']),
      ['d', 'e'],
    );
  });

  it('keeps two identical lines written in the same instant, and drops both when repeated', () => {
    const d = new ResumeDeduper();
    assert.deepEqual(shown(d, ['2026-11-23T02:40:01.1Z x', '2026-11-23T02:40:01.1Z x']), ['x', 'x']);
    d.resume();
    assert.deepEqual(shown(d, ['2026-11-23T02:40:01.1Z x', '2026-11-23T02:40:01.1Z x', '2026-11-23T02:40:01.1Z y']), ['y']);
  });

  it('drops lines older than the last kept second after a resume', () => {
    const d = new ResumeDeduper();
    shown(d, ['2026-11-23T02:40:05.0Z late']);
    d.resume();
    assert.deepEqual(shown(d, ['2026-11-23T02:40:04.0Z old', '2026-11-23T02:40:05.0Z late', '2026-11-23T02:40:06.0Z new']), ['new']);
  });
});

describe('log continuity markers', () => {
  const pod = (restartCount: number, containerID: string) => ({
    status: { containerStatuses: [{ name: 'app', restartCount, containerID }], initContainerStatuses: [{ name: 'init', restartCount: 0, containerID: 'containerd://i' }] },
  });

  it('reads a container run from regular and init container statuses', () => {
    assert.deepEqual(containerRunOf(pod(2, 'containerd://a'), 'app'), { restartCount: 2, containerId: 'containerd://a' });
    assert.deepEqual(containerRunOf(pod(2, 'containerd://a'), 'init'), { restartCount: 0, containerId: 'containerd://i' });
    assert.equal(containerRunOf(pod(2, 'x'), 'nope'), undefined);
    assert.equal(containerRunOf(undefined, 'app'), undefined);
  });

  it('knows a restart by its count or its container id', () => {
    const a = containerRunOf(pod(0, 'containerd://a'), 'app');
    assert.equal(restartedBetween(a, containerRunOf(pod(0, 'containerd://a'), 'app')), false);
    assert.equal(restartedBetween(a, containerRunOf(pod(1, 'containerd://b'), 'app')), true);
    assert.equal(restartedBetween(a, containerRunOf(pod(0, 'containerd://b'), 'app')), true);
  });

  it('says the gap in seconds and, after a restart, that lines may have been lost', () => {
    assert.equal(reconnectMarker(4_400, false), 'reconnected, 4 s gap');
    assert.match(reconnectMarker(0, true), /^reconnected, 0 s gap; the container restarted meanwhile: lines written before the restart may have been lost$/);
  });
});
