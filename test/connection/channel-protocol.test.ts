import assert from 'node:assert/strict';
import { decodeFrame, encodeFrame, isBase64Protocol } from '../../src/connection/streaming/channel-protocol';
import { resultOfStatus } from '../../src/connection/streaming/exec-stream';

describe('streaming: the kubelet\'s channel framing and the exec status', () => {
  it('binary frames carry the channel as their first byte; base64 frames as an ASCII digit', () => {
    assert.deepEqual([...encodeFrame(1, Buffer.from('hi'))], [1, 0x68, 0x69]);
    assert.equal(encodeFrame(0, Buffer.from('hi'), true).toString('latin1'), '0aGk=');
    assert.deepEqual(decodeFrame(Buffer.from('2aGk=', 'latin1'), true), { channel: 2, data: Buffer.from('hi') });
    assert.deepEqual(decodeFrame(Buffer.of(3, 0x7b)), { channel: 3, data: Buffer.from('{') });
    assert.equal(decodeFrame(Buffer.alloc(0)), undefined);
    assert.equal(isBase64Protocol('v4.base64.channel.k8s.io'), true);
    assert.equal(isBase64Protocol('v5.channel.k8s.io'), false);
  });

  it('reads the v4 Status: success, a non-zero exit code from its cause, a failure in words', () => {
    assert.deepEqual(resultOfStatus('{"metadata":{},"status":"Success"}'), { exitCode: 0 });
    assert.deepEqual(
      resultOfStatus('{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}'),
      { exitCode: 3 },
    );
    assert.deepEqual(resultOfStatus('{"status":"Failure","message":"exec: \\"bash\\": executable file not found in $PATH","reason":"InternalError"}'), { message: 'exec: "bash": executable file not found in $PATH' });
    assert.deepEqual(resultOfStatus('not json'), { message: 'not json' });
  });
});
