import assert from 'node:assert/strict';
import { lookupKind } from '../../../src/ui/table';

const t = (resource: string, kind: string, group = '', namespaced = true) => ({ group, version: 'v1', resource, kind, namespaced });
const TYPES = [t('pods', 'Pod'), t('deployments', 'Deployment', 'apps'), t('services', 'Service'), t('services', 'Service', 'serving.knative.dev'), t('widgets', 'Widget', 'example.com'), t('nodes', 'Node', '', false)];

describe('table: go to a kind (:)', () => {
  it('reads plurals, singulars, kubectl short names, kinds and qualified names', () => {
    assert.equal(lookupKind(':pods', TYPES)?.resource, 'pods');
    assert.equal(lookupKind('pod', TYPES)?.resource, 'pods');
    assert.equal(lookupKind(':po', TYPES)?.resource, 'pods');
    assert.equal(lookupKind(':deploy', TYPES)?.group, 'apps');
    assert.equal(lookupKind(':Deployment', TYPES)?.group, 'apps');
    assert.equal(lookupKind(':no', TYPES)?.resource, 'nodes');
    assert.equal(lookupKind(':widgets', TYPES)?.group, 'example.com');
    assert.equal(lookupKind(':widgets.example.com', TYPES)?.kind, 'Widget');
  });

  it('prefers the core group, and a group named wins', () => {
    assert.equal(lookupKind(':svc', TYPES)?.group, '');
    assert.equal(lookupKind(':services.serving.knative.dev', TYPES)?.group, 'serving.knative.dev');
  });

  it('uses short names discovery gave, and finds nothing for an unknown name', () => {
    assert.equal(lookupKind(':wd', TYPES, { 'widgets.example.com': ['wd'] })?.resource, 'widgets');
    assert.equal(lookupKind(':nope', TYPES), undefined);
    assert.equal(lookupKind(':', TYPES), undefined);
  });
});
