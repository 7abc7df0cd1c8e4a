import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/informer';
import { debugContainerName, ephemeralContainerSpec, ephemeralContainersPatch, imageProblem } from '../../src/debug';

const pod = (ephemeral: string[] = []): KubeObject =>
  ({
    metadata: { namespace: 'shop', name: 'app-1', uid: 'u-1' },
    spec: { containers: [{ name: 'app' }], initContainers: [{ name: 'init' }], ephemeralContainers: ephemeral.map((name) => ({ name, image: 'busybox' })) },
  }) as unknown as KubeObject;

describe('debug: the ephemeral container kubectl debug adds', () => {
  it('X15 the name is debugger- and five of kubectl\'s characters, never one the pod has (regular, init or ephemeral)', () => {
    // A random source that first repeats a taken name, then gives another.
    const draws = [0, 0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5, 0.5];
    let i = 0;
    const random = () => draws[i++ % draws.length];
    assert.equal(debugContainerName(pod(['debugger-bbbbb']), random), 'debugger-rrrrr');
    assert.match(debugContainerName(pod()), /^debugger-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('X15 the patch is kubectl\'s two-way strategic merge patch (keys as Go sorts them), with the pod\'s uid; $setElementOrder only when the pod had ephemeral containers', () => {
    const c = ephemeralContainerSpec('debugger-x7kq2', { image: ' busybox:1.36 ', target: 'app' });
    assert.equal(JSON.stringify(ephemeralContainersPatch(pod(), c)), '{"metadata":{"uid":"u-1"},"spec":{"ephemeralContainers":[{"image":"busybox:1.36","name":"debugger-x7kq2","resources":{},"securityContext":{"capabilities":{"add":["SYS_PTRACE"]}},"stdin":true,"targetContainerName":"app","terminationMessagePolicy":"File","tty":true}]}}');
    const untargeted = ephemeralContainerSpec('debugger-b4n9z', { image: 'busybox' });
    assert.equal(JSON.stringify(ephemeralContainersPatch(pod(['debugger-x7kq2']), untargeted)), '{"metadata":{"uid":"u-1"},"spec":{"$setElementOrder/ephemeralContainers":[{"name":"debugger-x7kq2"},{"name":"debugger-b4n9z"}],"ephemeralContainers":[{"image":"busybox","name":"debugger-b4n9z","resources":{},"securityContext":{"capabilities":{"add":["SYS_PTRACE"]}},"stdin":true,"terminationMessagePolicy":"File","tty":true}]}}');
  });

  it('X15 an image typed by the user is checked in words before anything is sent', () => {
    assert.equal(imageProblem('busybox'), undefined);
    assert.equal(imageProblem('registry.example.com:5000/tools/debug:1.2@sha256:' + 'a'.repeat(64)), undefined);
    assert.equal(imageProblem('nicolaka/netshoot:v0.13'), undefined);
    assert.equal(imageProblem('  '), 'an image is needed, for example busybox or nicolaka/netshoot');
    assert.equal(imageProblem('busy box'), 'an image reference has no spaces (for example busybox:1.36)');
    assert.match(imageProblem('Busybox!')!, /^"Busybox!" is not an image reference/);
  });
});
