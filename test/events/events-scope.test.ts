import assert from 'node:assert/strict';
import { CORE_EVENTS, EVENTS_V1, decideEventsScope } from '../../src/events';
import type { AccessQuery, AccessReviewCache, ResourceRules } from '../../src/cluster/access-review';
import { permissionScope } from '../../src/manager/permission-scope';
import type { ResourceType } from '../../src/informer';

/** A user's RBAC as the reviews answer it: `grants` of `group/resource` → namespaces ('*' = cluster wide). */
function access(grants: Record<string, string[]>): { cache: AccessReviewCache; asked: string[] } {
  const asked: string[] = [];
  const may = (q: AccessQuery, namespace: string | undefined) => {
    const where = grants[`${q.group}/${q.resource}`] ?? [];
    return where.includes('*') || (namespace !== undefined && where.includes(namespace));
  };
  const cache = {
    can: async (q: AccessQuery) => {
      asked.push(`${q.verb} ${q.group}/${q.resource} in ${q.namespace ?? '*'}`);
      return { allowed: may(q, q.namespace) };
    },
    rules: async (namespace: string): Promise<ResourceRules> => ({
      namespace,
      incomplete: false,
      resourceRules: Object.keys(grants)
        .filter((k) => may({ verb: 'list', group: k.split('/')[0], resource: k.split('/')[1] }, namespace))
        .map((k) => ({ verbs: ['list', 'watch'], apiGroups: [k.split('/')[0]], resources: [k.split('/')[1]] })),
    }),
  } as unknown as AccessReviewCache;
  return { cache, asked };
}

function scopeOf(cache: AccessReviewCache, namespaces: string[], contextNamespace = 'team-a') {
  const transport = { list: async () => ({ items: namespaces.map((name) => ({ metadata: { name } })), metadata: {} }) } as never;
  return (type: ResourceType) => permissionScope({ access: cache, transport, type, configured: [], contextNamespace, signal: new AbortController().signal });
}

describe('events: where the feed watches, from the permission scope', () => {
  it('cluster wide on events.k8s.io when the user may list events there', async () => {
    const { cache } = access({ 'events.k8s.io/events': ['*'], '/namespaces': ['*'] });
    const scope = await decideEventsScope(scopeOf(cache, ['a', 'b']));
    assert.deepEqual(scope, { type: EVENTS_V1, namespaces: [''], limited: false });
  });

  it('a namespace-only user: per namespace (the context namespace), never cluster wide', async () => {
    const { cache } = access({ 'events.k8s.io/events': ['team-a'] });
    const scope = await decideEventsScope(scopeOf(cache, []));
    assert.deepEqual(scope, { type: EVENTS_V1, namespaces: ['team-a'], limited: true });
  });

  it('a user who may list namespaces and events in two of them: those two', async () => {
    const { cache } = access({ '/events': ['b', 'team-a'], '/namespaces': ['*'] });
    const scope = await decideEventsScope(scopeOf(cache, ['a', 'b', 'c', 'team-a']));
    assert.deepEqual(scope, { type: CORE_EVENTS, namespaces: ['team-a', 'b'], limited: true }, 'core Events when events.k8s.io is granted nowhere');
  });

  it('the group not served (preferCore): core Events only', async () => {
    const { cache, asked } = access({ '/events': ['*'] });
    const scope = await decideEventsScope(scopeOf(cache, []), true);
    assert.deepEqual(scope, { type: CORE_EVENTS, namespaces: [''], limited: false });
    assert.ok(asked.every((q) => !q.includes('events.k8s.io')));
  });

  it('no events anywhere: nothing watched, and why', async () => {
    const { cache } = access({});
    const scope = await decideEventsScope(scopeOf(cache, []));
    assert.deepEqual(scope.namespaces, []);
    assert.match(scope.denied ?? '', /may not list and watch events/);
  });
});
