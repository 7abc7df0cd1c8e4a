import assert from 'node:assert/strict';
import { ShellSession, type SessionEnd, type ShellSessionOptions } from '../../src/shell';
import { StreamsRig, until } from './rig';

/**
 * Shells and commands in a container (issue 24, S08 and S09) through our real transport against
 * the local API server's exec (WebSocket, `v5.channel.k8s.io` or `v4`), which runs a real
 * `/bin/sh` in a scratch directory of the pod, under a real pseudo-terminal when a TTY is asked.
 */
describe('shell: exec in a container (local API server)', function () {
  this.timeout(120_000);
  let rig: StreamsRig;
  const sessions: ShellSession[] = [];

  afterEach(async () => {
    for (const s of sessions.splice(0)) s.dispose();
    await rig?.close();
  });

  function session(pod: string, options: Partial<ShellSessionOptions> = {}): { s: ShellSession; out: () => string; end: Promise<SessionEnd> } {
    const s = new ShellSession({ namespace: 'shop', pod }, { transport: rig.manager.transportOf(rig.entryId)!, clock: rig.clock, tty: true, ...options });
    sessions.push(s);
    let text = '';
    s.onOutput((c) => (text += c.data.toString('utf8')));
    const end = new Promise<SessionEnd>((resolve) => s.onEnd(resolve));
    return { s, out: () => text, end };
  }

  it('S08 a shell with a TTY: bash then sh, resize reaches the terminal, the exit code is reported (v5, and v4 where v5 is not offered)', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    for (const v5 of [true, false]) {
      rig.server.podStreams.offerV5 = v5;
      const { s, out, end } = session('web-1', { initialSize: { columns: 90, rows: 20 } });
      await s.start();
      assert.deepEqual(s.command, ['sh'], 'the simulated image has no bash: sh is the one that runs');
      assert.equal(s.protocol, v5 ? 'v5.channel.k8s.io' : 'v4.channel.k8s.io');
      s.resize(100, 30);
      await until(() => rig.server.podStreams.resizes.some((r) => r.width === 100 && r.height === 30), () => 'the resize reached the server');
      s.writeStdin('stty size; pwd | grep -c kube-watch-pod-web-1\n');
      await until(() => /30 100/.test(out()), () => `stty size shows the new size: ${JSON.stringify(out())}`);
      await until(() => /^1\r?$/m.test(out()), () => `the shell runs in the pod's scratch directory: ${JSON.stringify(out())}`);
      s.writeStdin('exit 3\n');
      const ended = await end;
      assert.deepEqual(ended.result, { exitCode: 3 });
      assert.equal(ended.dropped, undefined);
    }
    const bashRequests = rig.server.requests.filter((r) => r.path.endsWith('/exec') && r.query.command === 'bash');
    assert.equal(bashRequests.length, 2, 'bash was tried first each time');
  });

  it('S08 Run Command: output without a TTY (stdout and stderr apart) and its exit code', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    const { s, end } = session('web-1', { tty: false, command: ['sh', '-c', 'echo out; echo err >&2; exit 42'] });
    const chunks: Array<{ stream: string; text: string }> = [];
    s.onOutput((c) => chunks.push({ stream: c.stream, text: c.data.toString('utf8') }));
    await s.start();
    const ended = await end;
    assert.deepEqual(ended.result, { exitCode: 42 });
    assert.equal(chunks.filter((c) => c.stream === 'stdout').map((c) => c.text).join(''), 'out\n');
    assert.equal(chunks.filter((c) => c.stream === 'stderr').map((c) => c.text).join(''), 'err\n');
    const missing = session('web-1', { tty: false, command: ['no-such-tool'] });
    await missing.s.start();
    assert.match((await missing.end).result?.message ?? '', /executable file not found/);
  });

  it('S09 a dropped shell says so (how long it lasted, the pod still exists) and a new session works', async () => {
    rig = await StreamsRig.start();
    rig.pod('web-1', { app: 'web' });
    const first = session('web-1');
    await first.s.start();
    first.s.writeStdin('echo ready\n');
    await until(() => /ready/.test(first.out()), () => 'the shell answers');
    assert.equal(rig.server.podStreams.drop('exec'), 1);
    const ended = await first.end;
    assert.ok(ended.dropped, `dropped: ${JSON.stringify(ended)}`);
    assert.deepEqual(ended.pod, { kind: 'exists' });
    assert.ok(ended.durationMs >= 0);
    const second = session('web-1');
    await second.s.start();
    second.s.writeStdin('echo again\n');
    await until(() => /again/.test(second.out()), () => 'the new session answers');
    rig.server.delete('pods', 'shop', 'web-1');
    rig.pod('web-1', { app: 'web' });
    const replaced = await second.end;
    assert.ok(replaced.dropped !== undefined);
    assert.deepEqual(replaced.pod, { kind: 'replaced', by: 'web-1' });
  });
});
