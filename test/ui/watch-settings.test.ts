import assert from 'node:assert/strict';
import { labelSelectorProblem } from '../../src/ui/label-selector';
import { defaultResources, toWatchConfig } from '../../src/ui/watch-settings';

describe('settings', () => {
  it('map to a watch configuration, with defaults for missing or mistyped values', () => {
    assert.deepEqual(toWatchConfig({}), {
      kubeconfigPath: undefined,
      contexts: [],
      resources: defaultResources,
      namespaces: [],
      labelSelector: undefined,
      timeoutSeconds: undefined,
      maxBackoffMs: undefined,
      streamingList: undefined,
    });
    const c = toWatchConfig({
      kubeconfigPath: ' /k ',
      contexts: ['a', ' ', 'b'],
      resources: ['pods', 3 as unknown as string],
      namespaces: ['default'],
      labelSelector: ' app=web ',
      watchTimeoutSeconds: 120,
      maxBackoffSeconds: 10,
      streamingList: 'never',
    });
    assert.deepEqual(c, {
      kubeconfigPath: '/k',
      contexts: ['a', 'b'],
      resources: ['pods'],
      namespaces: ['default'],
      labelSelector: 'app=web',
      timeoutSeconds: 120,
      maxBackoffMs: 10_000,
      streamingList: 'never',
    });
    assert.equal(toWatchConfig({ streamingList: 'sometimes' }).streamingList, undefined, 'an unknown mode is the default (auto)');
    assert.deepEqual(toWatchConfig({ resources: 'pods' as unknown as string[] }).resources, defaultResources);
  });

  it('label selectors are checked the way the API server parses them', () => {
    for (const ok of ['', 'app=web', 'app==web', 'tier!=cache', 'app.kubernetes.io/name=x', 'env in (prod, staging)', 'env notin (dev)', 'gpu', '!legacy', 'a=b,c!=d,e', 'k=']) {
      assert.equal(labelSelectorProblem(ok), undefined, ok);
    }
    for (const bad of ['app=web,', '=web', 'app=we b', 'env in prod', 'app=web)', 'a,,b', '-a=b']) {
      assert.ok(labelSelectorProblem(bad), bad);
    }
  });
});
