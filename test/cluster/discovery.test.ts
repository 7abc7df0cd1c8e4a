import assert from 'node:assert/strict';
import { UnknownResourceError, listResourceTypes, resolveResourceType } from '../../src/cluster/discovery';
import { ApiError, TransportError } from '../../src/base';
import { type KubeTransport, type ListResponse } from '../../src/informer';

/**
 * Discovery documents shaped like a real 1.26 server's (see fixtures/apiserver/00), trimmed to
 * what resolution reads. Served by a stub transport: resolution is pure request/response logic,
 * the fault tests cover the wire.
 */
const documents: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'] },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      { name: 'bindings', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] },
      { name: 'configmaps', singularName: '', namespaced: true, kind: 'ConfigMap', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['cm'] },
      { name: 'events', singularName: '', namespaced: true, kind: 'Event', verbs: ['get', 'list', 'watch'], shortNames: ['ev'] },
      { name: 'namespaces', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'list', 'watch'], shortNames: ['ns'] },
      { name: 'pods', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'list', 'watch'], shortNames: ['po'] },
      { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
      { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'list', 'watch'] },
    ],
  },
  '/apis': {
    kind: 'APIGroupList',
    groups: [
      { name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } },
      {
        name: 'events.k8s.io',
        versions: [{ groupVersion: 'events.k8s.io/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'events.k8s.io/v1', version: 'v1' },
      },
      {
        name: 'example.com',
        versions: [
          { groupVersion: 'example.com/v2', version: 'v2' },
          { groupVersion: 'example.com/v1', version: 'v1' },
        ],
        preferredVersion: { groupVersion: 'example.com/v2', version: 'v2' },
      },
      { name: 'metrics.k8s.io', versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }], preferredVersion: { version: 'v1beta1' } },
    ],
  },
  '/apis/apps/v1': {
    resources: [
      { name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs: ['list', 'watch', 'get'], shortNames: ['deploy'] },
      { name: 'deployments/scale', singularName: '', namespaced: true, kind: 'Scale', verbs: ['get', 'patch', 'update'] },
    ],
  },
  '/apis/events.k8s.io/v1': {
    resources: [{ name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['list', 'watch'], shortNames: ['ev'] }],
  },
  '/apis/example.com/v2': {
    resources: [{ name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['list', 'watch'], shortNames: ['wd'] }],
  },
  '/apis/example.com/v1': {
    resources: [
      { name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['list', 'watch'] },
      { name: 'gadgets', singularName: 'gadget', namespaced: false, kind: 'Gadget', verbs: ['list', 'watch', 'get'] },
      { name: 'gizmos', singularName: 'gizmo', namespaced: true, kind: 'Gizmo', verbs: ['get', 'create'] },
    ],
  },
};

class StubTransport implements KubeTransport {
  readonly server = 'https://stub';
  readonly requests: string[] = [];
  constructor(private readonly failing: Record<string, Error> = {}) {}
  async getJson<T = unknown>(path: string): Promise<T> {
    this.requests.push(path);
    const failure = this.failing[path];
    if (failure) throw failure;
    if (path === '/apis/metrics.k8s.io/v1beta1') {
      throw new ApiError({ kind: 'Status', code: 503, message: 'service unavailable', reason: 'ServiceUnavailable' }, 'http', 503);
    }
    const doc = documents[path];
    if (doc === undefined) throw new ApiError({ kind: 'Status', code: 404, message: '404 page not found', reason: 'NotFound' }, 'http', 404);
    return structuredClone(doc) as T;
  }
  list(): Promise<ListResponse> {
    throw new Error('not used');
  }
  watch(): Promise<void> {
    throw new Error('not used');
  }
  stream(): Promise<void> {
    throw new Error('not used');
  }
  dispose(): void {}
}

const signal = new AbortController().signal;

async function resolve(spelling: string, transport = new StubTransport()): Promise<string> {
  const t = await resolveResourceType(transport, spelling, signal);
  return `${t.group}/${t.version}/${t.resource} ${t.kind} ${t.namespaced ? 'namespaced' : 'cluster'}`;
}

describe('discovery: resolveResourceType', () => {
  it('resolves plural, singular, short name and kind of a core type', async () => {
    for (const s of ['pods', 'pod', 'po', 'Pod', 'PODS']) assert.equal(await resolve(s), '/v1/pods Pod namespaced', s);
    assert.equal(await resolve('configmaps'), '/v1/configmaps ConfigMap namespaced');
    assert.equal(await resolve('cm'), '/v1/configmaps ConfigMap namespaced');
    assert.equal(await resolve('ns'), '/v1/namespaces Namespace cluster');
  });

  it('resolves group-qualified and version-qualified spellings', async () => {
    assert.equal(await resolve('deployments.apps'), 'apps/v1/deployments Deployment namespaced');
    assert.equal(await resolve('deployments.v1.apps'), 'apps/v1/deployments Deployment namespaced');
    assert.equal(await resolve('deploy'), 'apps/v1/deployments Deployment namespaced');
    assert.equal(await resolve('widgets.example.com'), 'example.com/v2/widgets Widget namespaced');
    assert.equal(await resolve('widgets.v1.example.com'), 'example.com/v1/widgets Widget namespaced');
    assert.equal(await resolve('widget'), 'example.com/v2/widgets Widget namespaced');
  });

  it('prefers the preferred version, falling back to a type found only in another version', async () => {
    assert.equal(await resolve('gadgets.example.com'), 'example.com/v1/gadgets Gadget cluster');
    assert.equal(await resolve('gadgets'), 'example.com/v1/gadgets Gadget cluster');
  });

  it('prefers the core group for a name that several groups have', async () => {
    assert.equal(await resolve('events'), '/v1/events Event namespaced');
    assert.equal(await resolve('events.events.k8s.io'), 'events.k8s.io/v1/events Event namespaced');
  });

  it('asks only the core group when it has the name', async () => {
    const transport = new StubTransport();
    await resolve('pods', transport);
    assert.deepEqual([...transport.requests].sort(), ['/api', '/api/v1', '/apis']);
  });

  it('rejects unknown types, subresources and types that cannot be watched', async () => {
    for (const s of ['foo', 'pods/log', 'bindings', 'gizmos.example.com', 'widgets.v3.example.com', 'widgets.nowhere.io', '']) {
      await assert.rejects(resolveResourceType(new StubTransport(), s, signal), (err: unknown) => {
        assert.ok(err instanceof UnknownResourceError, `${s}: ${String(err)}`);
        assert.equal(err.message, `the server has no resource type "${s}"`);
        return true;
      });
    }
  });

  it('passes transport failures through instead of calling the type unknown', async () => {
    const down = new StubTransport({ '/api': new TransportError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') });
    await assert.rejects(resolveResourceType(down, 'pods', signal), TransportError);
  });
});

describe('discovery: listResourceTypes', () => {
  it('lists every watchable type once per group, core first, skipping a failing aggregated group', async () => {
    const types = await listResourceTypes(new StubTransport(), signal);
    assert.deepEqual(
      types.map((t) => `${t.group}/${t.version}/${t.resource}`),
      [
        '/v1/configmaps',
        '/v1/events',
        '/v1/namespaces',
        '/v1/pods',
        'apps/v1/deployments',
        'events.k8s.io/v1/events',
        'example.com/v2/widgets',
        'example.com/v1/gadgets',
      ],
    );
  });
});
