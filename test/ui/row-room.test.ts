/**
 * Names and states cut consistently at the default side bar width (issue 29, item 9): every pod
 * of one owner keeps the owner's name whole, a resource row keeps its count, a Port Forwards row
 * leads with its state.
 */
import assert from 'node:assert/strict';
import { emptyStats, type Informer, type InformerState, type KubeObject } from '../../src/informer';
import type { WatchEntry } from '../../src/manager';
import { forwardRow } from '../../src/ui/port-forward/forward-rows';
import { presentObject, presentWatch, presentWatchGroup } from '../../src/ui/tree';
import { RESOURCE_ROW_CHARS, rowCount } from '../../src/ui/tree/object-count';

const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
const running = {} as unknown as Informer;

function ledgerPod(suffix: string, waiting?: string): KubeObject {
  const state = waiting ? { waiting: { reason: waiting } } : { running: { startedAt: new Date(t0 - 60_000).toISOString() } };
  return {
    metadata: { name: `ledger-6d5f7c8b9-${suffix}`, namespace: 'payments', labels: { app: 'ledger', 'pod-template-hash': '6d5f7c8b9' }, creationTimestamp: new Date(t0 - 3_600_000).toISOString() },
    spec: { containers: [{ name: 'main' }] },
    status: { phase: 'Running', containerStatuses: [{ name: 'main', ready: !waiting, restartCount: waiting ? 6 : 0, state }] },
  } as KubeObject;
}

function watching(resource: string, namespace = ''): WatchEntry {
  const state: InformerState = { phase: 'watching', since: t0, synced: true };
  return { id: `${resource}/${namespace}`, context: 'sim', resource, namespace, label: `sim/${resource}`, informer: running, state, stats: { ...emptyStats(), resourceVersion: '48213' } };
}

describe('names cut consistently at the default side bar width (issue 29 item 9)', () => {
  it('every pod of one Deployment shows the owner\'s name whole; a status too long beside it is shown alone, whole', () => {
    const ok = presentObject(ledgerPod('b7n2k'), 'ledger-6d5f7c8b9-b7n2k', 'Pod', t0);
    const crashing = presentObject(ledgerPod('z9w4c', 'CrashLoopBackOff'), 'ledger-6d5f7c8b9-z9w4c', 'Pod', t0);
    assert.equal(ok.label, 'ledger…b7n2k');
    assert.equal(crashing.label, 'ledger…z9w4c', 'the same owner part as its Running sibling, not cut for its longer status');
    assert.equal(crashing.description, 'CrashLoopBackOff', 'the status alone: ready, restarts and age are in the tooltip');
    assert.match(ok.description ?? '', /^Running · 1\/1 · /, 'a short status keeps every field');
  });

  it('a resource row keeps its count at the default width: bare where the label, state and count in words would not fit; in words where they do', () => {
    const deployments = presentWatch('deployments.apps', watching('deployments.apps'), t0, 'resource', { count: rowCount(undefined, 6, undefined, 'deployments.apps') });
    assert.equal(deployments.description, 'watching · 6 · rv 48213', '`deployments.apps watching · 6 deployments` is longer than the row');
    assert.ok('deployments.apps watching · 6'.length <= RESOURCE_ROW_CHARS);
    const pods = presentWatch('pods', watching('pods'), t0, 'resource', { count: rowCount(3, 17, undefined, 'pods') });
    assert.equal(pods.description, 'watching · 3 of 17 pods · rv 48213', 'a filtered row of a short label says it in words');
    const configmaps = presentWatch('configmaps', watching('configmaps'), t0, 'resource', { count: rowCount(3, 17, undefined, 'configmaps') });
    assert.equal(configmaps.description, 'watching · 3 of 17 · rv 48213');
    const group = presentWatchGroup('configmaps', [watching('configmaps', 'a'), watching('configmaps', 'b')], t0, { count: rowCount(undefined, 12, undefined, 'configmaps') });
    assert.equal(group.description, 'watching 2 namespaces · 12');
    const namespaceWatch = presentWatch('payments', watching('configmaps', 'payments'), t0, 'namespace.watch', { count: '12 configmaps' });
    assert.equal(namespaceWatch.description, 'watching · 12 configmaps · rv 48213', 'a namespace row (its label names no type) keeps the noun');
  });

  it('a Port Forwards row leads with its state, so a narrow view never cuts it', () => {
    const status = { phase: 'failing' as const, reason: 'connection refused by pod web-1 port 80', since: 0, localAddress: '127.0.0.1', localPort: 8080, pod: 'web-1', podPort: 80, open: 0, served: 0, interrupted: 0, refused: 0, failed: 3, bytesIn: 0, bytesOut: 0, switches: 0 };
    assert.equal(forwardRow('deploy/payments-api 8080', '', status, 0).label, 'failing · deploy/payments-api 8080 → :8080');
    assert.equal(forwardRow('svc/web 80', '', { ...status, phase: 'ready', reason: undefined }, 0).label, 'ready · svc/web 80 → :8080', 'the port kept: the default loopback address is in the tooltip');
    assert.equal(forwardRow('svc/web 80', '', { ...status, phase: 'ready', reason: undefined, localAddress: '0.0.0.0' }, 0).label, 'ready · svc/web 80 → localhost:8080');
  });
});
