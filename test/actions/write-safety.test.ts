import assert from 'node:assert/strict';
import { ApiError } from '../../src/base';
import { WriteJournal, insideSelectors, planScale, runPlan, watchShows, type ActionTarget } from '../../src/actions';
import type { KubeObject, WriteRequest } from '../../src/informer';

/**
 * The pure parts of W09 and W10: a refusal recognised as "moved" from the server's answer alone
 * (when the object cannot be read again), what the watch must show of a delete, and which objects
 * fall inside a watch's selectors.
 */
const noWatches = { entries: () => [], entry: () => undefined, addHandler: () => ({ dispose: () => undefined }) };
const web: ActionTarget = {
  context: 'kind-dev',
  type: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
  namespace: 'shop',
  name: 'web',
  object: { metadata: { name: 'web', namespace: 'shop', uid: 'uid-web', resourceVersion: '10' }, spec: { replicas: 2 } },
};

async function refusedWith(err: ApiError) {
  const journal = new WriteJournal(noWatches);
  try {
    const transport = { write: async (_r: WriteRequest) => Promise.reject(err) };
    return await runPlan(planScale(web, 3), { transport, journal }, new AbortController().signal);
  } finally {
    journal.dispose();
  }
}

describe('Write safety: moved objects, deletes the watch must show, selectors', () => {
  it('W09 a 409 Conflict or a 422 on metadata.uid is "moved" in words even when the object cannot be read again; another 422 is the server\'s refusal', async () => {
    const conflict = await refusedWith(new ApiError({ code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again' }, 'http', 409));
    assert.equal(conflict.moved, true);
    assert.equal(conflict.words, 'Deployment shop/web changed since this was planned (rv 10 → a newer one): nothing was written; the plan is shown again');
    const uid = await refusedWith(new ApiError({ code: 422, reason: 'Invalid', message: 'Deployment.apps "web" is invalid: metadata.uid: Invalid value: "uid-web": field is immutable', details: { causes: [{ reason: 'FieldValueInvalid', field: 'metadata.uid' }] } }, 'http', 422));
    assert.equal(uid.moved, true);
    assert.match(uid.words, /^Deployment shop\/web was deleted and re-created since this was planned \(uid uid-web is gone\)/);
    const invalid = await refusedWith(new ApiError({ code: 422, reason: 'Invalid', message: 'spec.replicas: Invalid value: -1', details: { causes: [{ reason: 'FieldValueInvalid', field: 'spec.replicas' }] } }, 'http', 422));
    assert.equal(invalid.moved, undefined);
    assert.match(invalid.words, /^The server found the change invalid/);
  });

  it('W10 a delete is shown by the object going (its delete event, or another uid under its name), never by a version still there; terminating is reported, not gone', () => {
    const obj = (uid: string, rv: string, deleting = false): KubeObject => ({ metadata: { name: 'x', uid, resourceVersion: rv, ...(deleting ? { deletionTimestamp: 'now' } : {}) } });
    const del = { resourceVersion: '10', deletion: true, uid: 'u1' };
    assert.equal(watchShows(del, obj('u1', '10'), false), undefined, 'still there at the answer version');
    assert.equal(watchShows(del, obj('u1', '11', true), false), 'terminating');
    assert.equal(watchShows(del, obj('u1', '12'), true), 'deleted');
    assert.equal(watchShows(del, obj('u2', '13'), false), 'deleted', 'a relist holds another uid under the name');
    assert.equal(watchShows(del, obj('u2', '13'), true), undefined, "another object's delete event is not ours");
    assert.equal(watchShows({ resourceVersion: '10', deletion: false, uid: 'u1' }, obj('u2', '13'), false), undefined, 'a write on u1 is not shown by u2');
  });

  it('W10 an object is inside a watch\'s label and field selectors as the server decides it; unreadable selectors are undecided', () => {
    const pod: KubeObject = { metadata: { name: 'web-1', namespace: 'shop', labels: { app: 'web', tier: 'front' } }, spec: { nodeName: 'node-1' }, status: { phase: 'Running' } };
    assert.equal(insideSelectors(pod, 'app=web', undefined), true);
    assert.equal(insideSelectors(pod, 'app=other', undefined), false);
    assert.equal(insideSelectors(pod, 'app in (web,api),tier!=back,!canary,tier', undefined), true);
    assert.equal(insideSelectors(pod, 'app notin (web)', undefined), false);
    assert.equal(insideSelectors(pod, undefined, 'spec.nodeName=node-1,status.phase!=Failed'), true);
    assert.equal(insideSelectors(pod, undefined, 'metadata.name=web-2'), false);
    assert.equal(insideSelectors(pod, 'app=web(', undefined), undefined);
  });
});
