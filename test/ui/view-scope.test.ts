import assert from 'node:assert/strict';
import type { WatchEntry } from '../../src/manager';
import { kubeconfigProblem, kubeconfigReloadProblem } from '../../src/ui/kubeconfig-problem';
import { viewMessage, viewScope } from '../../src/ui/tree';
import type { Informer } from '../../src/informer';

const state = { phase: 'watching' as const, since: 0, synced: true };
const stats = { lists: 1, relists: 0, watches: 1, expiries: 0, errors: 0, events: 0, bookmarks: 0 };

function entry(context: string, extra: Partial<WatchEntry> = {}): WatchEntry {
  return { id: `${context}/pods`, context, resource: 'pods', namespace: '', state, stats, label: `${context}/pods`, ...extra } as WatchEntry;
}

/** Stands for a running informer; only its presence matters to these functions. */
const running = {} as Informer;

describe('the view says what it shows (V09) and why the kubeconfig is a problem (V02, V03)', () => {
  it('V09 context, namespaces and selectors in the description; the filter in full, after them', () => {
    const entries = [entry('kind-dev', { informer: running })];
    assert.equal(viewScope({ contexts: [], namespaces: [] }, entries).description, 'kind-dev · all namespaces');
    const filtered = viewScope({ contexts: [], namespaces: ['default', 'kube-system'], labelSelector: 'app=web,tier!=db' }, entries);
    assert.equal(filtered.description, 'kind-dev · default, kube-system · app=web,tier!=db');
    assert.equal(filtered.filtered, true);
    assert.deepEqual(filtered.lines, ['Context: kind-dev', 'Namespaces: default, kube-system', 'Label selector: app=web,tier!=db']);
    // Said above the tree too: alone in its container, the view's description is hidden by VS Code.
    assert.equal(viewMessage({ contexts: [], namespaces: ['default', 'kube-system'], labelSelector: 'app=web,tier!=db' }, entries), 'Showing kind-dev · default, kube-system · app=web,tier!=db');
    assert.equal(viewMessage({ contexts: [], namespaces: [] }, []), undefined, 'nothing watched: the welcome content, which a message would hide');
    const many = viewScope({ contexts: ['a', 'b', 'c'], namespaces: ['x', 'y', 'z'], fieldSelector: 'status.phase=Running' }, entries);
    assert.equal(many.description, '3 contexts · 3 namespaces · fields status.phase=Running');
    assert.equal(many.lines[0], 'Contexts: a, b, c');
    assert.equal(viewScope({ contexts: [], namespaces: [] }, []).description, 'current context · all namespaces', 'before the kubeconfig is read');
  });

  it('V02 an unreadable kubeconfig with nothing running: the welcome content, no message to hide it', () => {
    const entries = [entry('', { errorKind: 'kubeconfig', error: 'ENOENT: no such file /x' })];
    assert.equal(kubeconfigProblem(entries), 'ENOENT: no such file /x');
    assert.equal(viewMessage({ contexts: [], namespaces: [] }, entries), undefined, 'a view message hides the welcome content');
    assert.equal(viewScope({ contexts: [], namespaces: [] }, entries).description, 'no kubeconfig');
  });

  it('V03 a bad path while watches run on the configuration read before: the tree stays, the message says so', () => {
    const error = 'the kubeconfig file /nope does not exist (still using the configuration read before)';
    const entries = [entry('kind-dev', { informer: running, errorKind: 'kubeconfig', error }), entry('kind-dev', { id: 'b', informer: running, errorKind: 'kubeconfig', error })];
    assert.equal(kubeconfigProblem(entries), undefined, 'the tree is not emptied');
    assert.equal(kubeconfigReloadProblem(entries), error);
    assert.equal(viewMessage({ contexts: [], namespaces: [] }, entries), 'The kubeconfig file /nope does not exist (still using the configuration read before). Showing kind-dev · all namespaces');
    const other = [entry('kind-dev', { informer: running, errorKind: 'kubeconfig', error: 'EACCES: permission denied' })];
    assert.equal(viewMessage({ contexts: [], namespaces: [] }, other), 'Kubeconfig: EACCES: permission denied. Showing kind-dev · all namespaces', 'a reason that does not name the kubeconfig gets the prefix');
    assert.equal(viewScope({ contexts: [], namespaces: [] }, entries).description, 'kind-dev · all namespaces');
  });
});
