/**
 * Mocha glue: one control plane per test file (`useControlPlane` at the top of a `describe`),
 * started in `before` and stopped in `after`, also when tests fail. Without binaries the file's
 * tests are skipped with one line saying why, or fail when `CI` is set: never a silent pass.
 */
import { AssetsMissingError, findAssets } from './assets';
import { ControlPlane, type ControlPlaneOptions } from './control-plane';

/** Bound on one start (unpacking the binaries the first time, etcd, kube-apiserver, RBAC). */
const START_BOUND_MS = 180_000;

let missingSaid = false;

/** Returns the control plane of the enclosing `describe` (valid inside its tests and hooks). */
export function useControlPlane(opts: ControlPlaneOptions = {}, label = describeOptions(opts)): () => ControlPlane {
  let plane: ControlPlane | undefined;
  before(async function () {
    this.timeout(START_BOUND_MS);
    const found = Date.now();
    let unpackMs = 0;
    try {
      findAssets(); // unpacks the binaries the first time
      unpackMs = Date.now() - found;
    } catch (err) {
      if (!(err instanceof AssetsMissingError)) throw err;
      if (!missingSaid) console.log(`real tier: ${err.message}${process.env.CI ? '' : ' (skipped; CI fails here)'}`);
      missingSaid = true;
      if (process.env.CI) throw err;
      this.skip();
    }
    plane = await ControlPlane.start(opts);
    const t = plane.startup;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`      real tier: control plane (${label}) up in ${s(t.totalMs)}: etcd ${s(t.etcdMs)}, kube-apiserver ${s(t.apiServerMs)}, RBAC ${s(t.setupMs)}${unpackMs > 500 ? `; binaries unpacked first in ${s(unpackMs)}` : ''}`);
  });
  after(async function () {
    this.timeout(60_000);
    await plane?.stop();
    plane = undefined;
  });
  return () => {
    if (!plane) throw new Error('the control plane is not running (used outside its describe, or its start failed)');
    return plane;
  };
}

function describeOptions(o: ControlPlaneOptions): string {
  const parts: string[] = [];
  parts.push(o.watchCache === false ? 'watch cache off' : 'watch cache on');
  for (const [gate, on] of Object.entries(o.featureGates ?? {})) parts.push(`${gate}=${on}`);
  if (o.authorization === 'AlwaysAllow') parts.push('AlwaysAllow');
  if (o.audit) parts.push('audit log');
  return parts.join(', ');
}
