import assert from 'node:assert/strict';
import { DEFAULT_FIELD_MANAGER, fieldManager, setFieldManager } from '../../src/base';
import { planScale } from '../../src/actions';
import type { KubeObject, ResourceType } from '../../src/informer';

const DEPLOYMENTS: ResourceType = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true };

describe('base: the field manager every write is sent as (kubeWatch.edit.fieldManager)', () => {
  afterEach(() => setFieldManager(undefined));

  it('kube-watch unless set; a set one is what the actions plan with; an empty, too long or unprintable one falls back', () => {
    assert.equal(fieldManager(), DEFAULT_FIELD_MANAGER);
    assert.equal(setFieldManager(' platform-team '), 'platform-team');
    const web = { context: 'dev', type: DEPLOYMENTS, namespace: 'shop', name: 'web', object: { metadata: { name: 'web', namespace: 'shop', uid: 'u', resourceVersion: '1' }, spec: { replicas: 1 } } as KubeObject };
    assert.deepEqual(planScale(web, 2).writes[0].request.query, { fieldManager: 'platform-team' });
    assert.equal(setFieldManager(''), 'kube-watch');
    assert.equal(setFieldManager('x'.repeat(129)), 'kube-watch');
    assert.equal(setFieldManager('a\nb'), 'kube-watch');
    assert.equal(setFieldManager('x'.repeat(128)), 'x'.repeat(128));
  });
});
