import assert from 'node:assert/strict';
import type { CatalogGroup } from '../../src/catalog';
import type { ResourceType } from '../../src/informer';
import { presentCatalog } from '../../src/ui/tree/view-presentation';

/** The "All resources" row's description, counted in words a person reads. */
describe('All resources row', () => {
  const pods: ResourceType = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };
  const deployments: ResourceType = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
  const replicaSets: ResourceType = { ...deployments, resource: 'replicasets', kind: 'ReplicaSet' };
  const core: CatalogGroup = { name: '', types: [pods] };
  const apps: CatalogGroup = { name: 'apps', types: [deployments, replicaSets] };

  it('says one type in one API group in the singular, more in the plural', () => {
    assert.equal(presentCatalog({ loading: false, groups: [core] }).description, '1 type in 1 API group');
    assert.equal(presentCatalog({ loading: false, groups: [core, apps] }).description, '3 types in 2 API groups');
  });
});
