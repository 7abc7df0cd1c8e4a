import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SimulatedCluster } from '../../scripts/sandbox/simulated-cluster';
import type { KubeObjectJson } from '../support/apiserver';
import { kubectlOnPath } from '../support/apiserver/protobuf/kubectl-descriptors';
import { until } from '../support/until';

/**
 * Issue 29 item 11: the sandbox answers kubectl as a real server does. The machine's kubectl
 * (1.32 sends the typed clients' bodies as protobuf, asks for Tables, reads OpenAPI v3 to apply)
 * runs against the simulated cluster with its controllers; each test checks kubectl's output and
 * the objects it leaves on the server. Skipped, with a line saying so, without a kubectl on PATH.
 */

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const containersOf = (o: KubeObjectJson | undefined): Json[] => (rec(rec(rec(rec(o?.spec).template).spec)).containers as Json[] | undefined) ?? [];

describe('sandbox: kubectl against the simulated cluster', function () {
  this.timeout(120_000);
  const kubectl = kubectlOnPath();
  let cluster: SimulatedCluster;
  let cacheDir: string;

  before(async function () {
    if (!kubectl) return this.skip(); // no kubectl on PATH: nothing to run these with
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-kubectl-cache-'));
    cluster = await SimulatedCluster.start({ podLogEveryMs: 0 });
    cluster.startControllers();
  });

  after(async () => {
    await cluster?.stop();
    if (cacheDir) fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  /** Runs kubectl on the cluster's kubeconfig (never blocking this process, which serves the cluster). */
  function run(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = execFile(kubectl!, args, { env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath, KUBECACHEDIR: cacheDir }, timeout: 90_000 }, (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return reject(err);
        resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr });
      });
      if (input !== undefined) child.stdin!.end(input);
    });
  }

  async function ok(args: string[], input?: string): Promise<string> {
    const r = await run(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
    assert.doesNotMatch(r.stderr, /openapi|unrecognized|json parse error/i, `kubectl ${args.join(' ')} warned:\n${r.stderr}`);
    return r.stdout;
  }

  const header = (out: string) => out.split('\n')[0].trim().split(/\s{2,}/);

  it('U11 kubectl create (protobuf bodies) makes the objects as typed: configmap, secret, deployment with its port and replicas, service', async () => {
    assert.match(await ok(['create', 'configmap', 'u11-config', '-n', 'shop', '--from-literal=COLOR=blue', '--from-literal=EMPTY=']), /^configmap\/u11-config created$/m);
    assert.deepEqual(cluster.server.get('configmaps', 'shop', 'u11-config')?.data, { COLOR: 'blue', EMPTY: '' });
    assert.match(await ok(['create', 'secret', 'generic', 'u11-secret', '-n', 'shop', '--from-literal=token=s3cret']), /^secret\/u11-secret created$/m);
    assert.deepEqual(cluster.server.get('secrets', 'shop', 'u11-secret')?.data, { token: Buffer.from('s3cret').toString('base64') });
    assert.match(await ok(['create', 'deployment', 'u11-web', '-n', 'shop', '--image=nginx:1.27', '--port=8080', '--replicas=2']), /^deployment\.apps\/u11-web created$/m);
    const d = cluster.server.get('deployments.apps', 'shop', 'u11-web');
    assert.equal(rec(d?.spec).replicas, 2);
    assert.deepEqual(containersOf(d).map((c) => [c.name, c.image, c.ports]), [['nginx', 'nginx:1.27', [{ containerPort: 8080 }]]]);
    assert.match(await ok(['create', 'service', 'clusterip', 'u11-web', '-n', 'shop', '--tcp=80:8080']), /^service\/u11-web created$/m);
    assert.deepEqual(rec(cluster.server.get('services', 'shop', 'u11-web')?.spec).ports, [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }]);
    // Its controllers make the Pods from the template, ports included.
    const pods = await until(() => {
      const made = cluster.server.list('pods', 'shop').filter((p) => p.metadata.labels?.app === 'u11-web');
      return made.length === 2 ? made : undefined;
    }, 'two u11-web Pods');
    for (const pod of pods) assert.deepEqual(((rec(pod.spec).containers as Json[]) ?? []).map((c) => [c.name, c.ports]), [['nginx', [{ containerPort: 8080 }]]], pod.metadata.name);
  });

  it('U11 kubectl get prints the columns a real server sends: pods -A, -o wide, deployments, a custom resource, NAME AGE for the rest', async () => {
    const pods = await ok(['get', 'pods', '-A']);
    assert.deepEqual(header(pods), ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    assert.match(pods, /^payments\s+ledger-6d5f7c8b9-z9w4c\s+0\/1\s+CrashLoopBackOff\s+6 \(\S+ ago\)\s+\S+$/m);
    assert.match(pods, /^default\s+debug\s+0\/1\s+\S+\s+0\s+\S+$/m);
    const wide = await ok(['get', 'pods', '-n', 'shop', '-o', 'wide']);
    assert.deepEqual(header(wide), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    const deployments = await ok(['get', 'deployments', '-n', 'payments']);
    assert.deepEqual(header(deployments), ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    assert.match(deployments, /^ledger\s+1\/2\s+2\s+1\s+\S+$/m);
    assert.deepEqual(header(await ok(['get', 'services', '-n', 'shop'])), ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    assert.deepEqual(header(await ok(['get', 'configmaps', '-n', 'shop'])), ['NAME', 'DATA', 'AGE']);
    assert.match(await ok(['get', 'widgets', '-A']), /^shop\s+blue-widget\s+Ready\s+3\s+\S+$/m);
    assert.deepEqual(header(await ok(['get', 'endpointslices', '-n', 'shop'])), ['NAME', 'AGE']);
    // One object by name gets its Table too.
    assert.match(await ok(['get', 'deployment', 'ledger', '-n', 'payments']), /^ledger\s+1\/2\s+2\s+1\s+\S+$/m);
  });

  it('U11 kubectl get -w prints each change in the same columns (the watch sends one-row Tables)', async () => {
    const child = execFile(kubectl!, ['get', 'pods', '-n', 'monitoring', '-w'], { env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath, KUBECACHEDIR: cacheDir } });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await until(() => /^grafana-7c9d8f6b5-m4x8w\s+1\/1\s+Running/m.test(out), () => `the watch's first rows; kubectl printed:\n${out}`);
      cluster.updatePod('monitoring', 'grafana-7c9d8f6b5-m4x8w', { phase: 'Running', ready: false });
      await until(() => /^grafana-7c9d8f6b5-m4x8w\s+0\/1\s+Running\s+0\s+\S+$/m.test(out), () => `the change as a row; kubectl printed:\n${out}`);
      assert.deepEqual(header(out), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      assert.equal(out.split('\n').filter((l) => l.startsWith('NAME')).length, 1, out);
    } finally {
      child.kill();
    }
  });

  it('U11 kubectl apply (client-side) validates on the server and merges containers by name; apply --server-side takes the fields', async () => {
    const manifest = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: u11-applied, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: u11-applied}}
  template:
    metadata: {labels: {app: u11-applied}}
    spec:
      containers:
      - {name: web, image: "${image}", ports: [{containerPort: 80}]}
      - {name: sidecar, image: busybox}
`;
    assert.match(await ok(['apply', '-f', '-'], manifest('nginx:1')), /^deployment\.apps\/u11-applied created$/m);
    // Someone else adds an env var to the web container: a strategic merge keeps it, a JSON merge patch would drop it.
    await ok(['patch', 'deployment', 'u11-applied', '-n', 'shop', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"MODE","value":"live"}]}]}}}}']);
    assert.match(await ok(['apply', '-f', '-'], manifest('nginx:2')), /^deployment\.apps\/u11-applied configured$/m);
    const applied = containersOf(cluster.server.get('deployments.apps', 'shop', 'u11-applied'));
    assert.deepEqual(
      applied.map((c) => [c.name, c.image, c.env]),
      [
        ['web', 'nginx:2', [{ name: 'MODE', value: 'live' }]],
        ['sidecar', 'busybox', undefined],
      ],
    );
    assert.match(await ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], manifest('nginx:3')), /^deployment\.apps\/u11-applied serverside-applied$/m);
    const managers = ((cluster.server.get('deployments.apps', 'shop', 'u11-applied')?.metadata.managedFields ?? []) as Json[]).map((m) => `${m.manager}/${m.operation}`);
    assert.ok(managers.includes('kubectl/Apply'), `managedFields: ${managers.join(', ')}`);
    assert.equal(containersOf(cluster.server.get('deployments.apps', 'shop', 'u11-applied'))[0].image, 'nginx:3');
  });

  it('U11 kubectl scale, patch (strategic, merge, json) and delete change the objects', async () => {
    assert.match(await ok(['scale', 'deployment/web', '-n', 'shop', '--replicas=3']), /^deployment\.apps\/web scaled$/m);
    assert.equal(rec(cluster.server.get('deployments.apps', 'shop', 'web')?.spec).replicas, 3);
    await until(() => cluster.server.list('pods', 'shop').filter((p) => p.metadata.labels?.app === 'web' && !p.metadata.deletionTimestamp).length === 3 || undefined, 'three web Pods');
    await ok(['patch', 'configmap', 'web-config', '-n', 'shop', '--type=merge', '-p', '{"data":{"LOG_LEVEL":"debug"}}']);
    await ok(['patch', 'configmap', 'web-config', '-n', 'shop', '--type=json', '-p', '[{"op":"add","path":"/data/TRACE","value":"on"}]']);
    const data = rec(cluster.server.get('configmaps', 'shop', 'web-config')?.data);
    assert.equal(data.LOG_LEVEL, 'debug');
    assert.equal(data.TRACE, 'on');
    await ok(['patch', 'deployment', 'api', '-n', 'shop', '-p', '{"metadata":{"labels":{"tier":"back"}}}']);
    assert.equal(cluster.server.get('deployments.apps', 'shop', 'api')?.metadata.labels?.tier, 'back');
    assert.match(await ok(['delete', 'configmap', 'api-config', '-n', 'shop']), /^configmap "api-config" deleted$/m);
    assert.equal(cluster.server.get('configmaps', 'shop', 'api-config'), undefined);
  });

  it('U11 kubectl drain (DeleteOptions in protobuf) moves a Pod off a cordoned node; uncordon undoes the cordon', async () => {
    const out = await ok(['drain', 'node-1', '--ignore-daemonsets', '--force', '--timeout=60s', '--pod-selector=app=grafana']);
    assert.match(out, /^node\/node-1 drained$/m);
    assert.equal(rec(cluster.server.get('nodes', undefined, 'node-1')?.spec).unschedulable, true);
    const moved = await until(() => cluster.server.list('pods', 'monitoring').find((p) => p.metadata.labels?.app === 'grafana' && rec(p.spec).nodeName === 'node-2'), 'a grafana Pod on node-2');
    assert.notEqual(moved.metadata.name, 'grafana-7c9d8f6b5-m4x8w');
    assert.match(await ok(['uncordon', 'node-1']), /^node\/node-1 uncordoned$/m);
    assert.equal(rec(cluster.server.get('nodes', undefined, 'node-1')?.spec).unschedulable, undefined);
  });

  it('U11 kubectl rollout restart makes new Pods from the whole template (container ports kept); rollout status and history follow it', async () => {
    const before = new Set(cluster.server.list('pods', 'payments').map((p) => p.metadata.name));
    assert.match(await ok(['rollout', 'restart', 'deployment/ledger', '-n', 'payments']), /^deployment\.apps\/ledger restarted$/m);
    const fresh = await until(() => {
      const pods = cluster.server.list('pods', 'payments').filter((p) => p.metadata.labels?.app === 'ledger' && !before.has(p.metadata.name));
      return pods.length === 2 ? pods : undefined;
    }, 'two new ledger Pods');
    for (const pod of fresh) {
      assert.deepEqual(((rec(pod.spec).containers as Json[]) ?? []).map((c) => c.ports), [[{ containerPort: 8080, name: 'http', protocol: 'TCP' }]], pod.metadata.name);
      assert.ok(pod.metadata.annotations?.['kubectl.kubernetes.io/restartedAt'], `${pod.metadata.name} carries the restart's annotation`);
    }
    assert.match(await ok(['rollout', 'status', 'deployment/ledger', '-n', 'payments', '--timeout=90s']), /successfully rolled out/);
    assert.match(await ok(['rollout', 'history', 'deployment/ledger', '-n', 'payments']), /^2\s+<none>$/m);
  });
});
