import { useControlPlane } from './support';
describe('explore', function () {
  this.timeout(120000);
  const plane = useControlPlane();
  it('explore', async () => {
    const p = plane();
    const ns = await p.setup.namespace();
    const a = p.admin;
    const dep = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'x' }] } } } });
    const d = await a.post(`/apis/apps/v1/namespaces/${ns}/deployments`, dep('web'));
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    const show = async (label: string, method: string, p2: string, body: unknown, ct: string) => { const r = await a.raw(method, p2, body, ct); console.log(label, r.status, r.text.slice(0, 400)); };
    await show('merge uid wrong', 'PATCH', path, { metadata: { uid: 'abc' }, spec: { replicas: 3 } }, 'application/merge-patch+json');
    await show('smp uid wrong', 'PATCH', path, { metadata: { uid: 'abc' }, spec: { replicas: 3 } }, 'application/strategic-merge-patch+json');
    await show('smp rv stale', 'PATCH', path, { metadata: { uid: d.metadata.uid, resourceVersion: '1' }, spec: { replicas: 3 } }, 'application/strategic-merge-patch+json');
    await show('json test uid wrong', 'PATCH', path, [{ op: 'test', path: '/metadata/uid', value: 'abc' }, { op: 'replace', path: '/spec/replicas', value: 3 }], 'application/json-patch+json');
    await show('json test rv wrong', 'PATCH', path, [{ op: 'test', path: '/metadata/resourceVersion', value: '1' }, { op: 'replace', path: '/spec/replicas', value: 3 }], 'application/json-patch+json');
    await show('scale merge uid wrong', 'PATCH', path + '/scale', { metadata: { uid: 'abc' }, spec: { replicas: 3 } }, 'application/merge-patch+json');
    await show('scale merge rv stale', 'PATCH', path + '/scale', { metadata: { uid: d.metadata.uid, resourceVersion: '1' }, spec: { replicas: 3 } }, 'application/merge-patch+json');
    await show('scale json test uid wrong', 'PATCH', path + '/scale', [{ op: 'test', path: '/metadata/uid', value: 'abc' }, { op: 'replace', path: '/spec/replicas', value: 3 }], 'application/json-patch+json');
    await show('scale merge ok', 'PATCH', path + '/scale', { metadata: { uid: d.metadata.uid, resourceVersion: d.metadata.resourceVersion }, spec: { replicas: 3 } }, 'application/merge-patch+json');
    // node
    await a.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n-exp' } });
    await show('node smp uid wrong', 'PATCH', '/api/v1/nodes/n-exp', { metadata: { uid: 'abc' }, spec: { unschedulable: true } }, 'application/strategic-merge-patch+json');
    // pods + eviction
    await a.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }).catch(() => undefined);
    await a.post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1' }, spec: { nodeName: 'n-exp', containers: [{ name: 'm', image: 'x' }] } });
    await show('evict uid wrong', 'POST', `/api/v1/namespaces/${ns}/pods/p1/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1', namespace: ns }, deleteOptions: { preconditions: { uid: 'abc' } } }, 'application/json');
    await show('evict ok', 'POST', `/api/v1/namespaces/${ns}/pods/p1/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1', namespace: ns } }, 'application/json');
    await show('get p1 after evict', 'GET', `/api/v1/namespaces/${ns}/pods/p1`, undefined, 'application/json');
    await show('evict again', 'POST', `/api/v1/namespaces/${ns}/pods/p1/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1', namespace: ns } }, 'application/json');
    await show('delete terminating', 'DELETE', `/api/v1/namespaces/${ns}/pods/p1`, { kind: 'DeleteOptions', apiVersion: 'v1' }, 'application/json');
    await show('node fs', 'GET', `/api/v1/pods?fieldSelector=spec.nodeName=n-exp`, undefined, 'application/json');
  });
});
