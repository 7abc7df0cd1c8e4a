import * as assert from 'node:assert/strict';
import { manifestObjectType } from '../../src/helm';
import type { ResourceType } from '../../src/informer';

const t = (group: string, version: string, resource: string, kind: string, namespaced = true): ResourceType => ({ group, version, resource, kind, namespaced });

describe('helm: a manifest object’s type, by discovery', () => {
  const types = [t('', 'v1', 'endpoints', 'Endpoints'), t('networking.k8s.io', 'v1', 'ingresses', 'Ingress'), t('', 'v1', 'pods', 'Pod'), t('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'), t('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false), t('example.com', 'v2', 'proxies', 'Proxy')];
  it('plurals and scope as the server serves them, never guessed from the kind', () => {
    assert.equal(manifestObjectType(types, { apiVersion: 'v1', kind: 'Endpoints' })?.resource, 'endpoints');
    assert.equal(manifestObjectType(types, { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' })?.resource, 'ingresses');
    assert.equal(manifestObjectType(types, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' })?.resource, 'poddisruptionbudgets');
    assert.equal(manifestObjectType(types, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' })?.namespaced, false);
  });
  it('a manifest of an older version gets the version the cluster serves; a kind the cluster does not serve has no type', () => {
    assert.deepEqual(manifestObjectType(types, { apiVersion: 'example.com/v1beta1', kind: 'Proxy' }), types[5]);
    assert.equal(manifestObjectType(types, { apiVersion: 'example.com/v2', kind: 'Gateway' }), undefined);
    assert.equal(manifestObjectType(types, { apiVersion: 'apps/v1', kind: 'Pod' }), undefined, 'the group counts');
  });
});
