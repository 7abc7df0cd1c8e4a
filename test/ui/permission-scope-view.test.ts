import assert from 'node:assert/strict';
import { emptyStats, type Informer, type InformerState } from '../../src/informer';
import { NOT_ALLOWED, type WatchEntry } from '../../src/manager';
import { StatusBarState } from '../../src/ui/status';
import { presentWatch, presentWatchGroup, viewMessage, viewScope } from '../../src/ui/tree';
import { describeWatchState } from '../../src/ui/watch-state-text';

const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
/** Stands in for a running informer: only its presence matters here. */
const running = {} as unknown as Informer;

function entry(resource: string, namespace: string, extra: Partial<WatchEntry> = {}): WatchEntry {
  const state: InformerState = { phase: 'watching', since: t0, synced: true };
  return { id: `${resource}/${namespace}`, context: 'shared', resource, namespace, label: `shared/${resource}${namespace ? ` in ${namespace}` : ''}`, informer: running, state, stats: emptyStats(), ...extra };
}

function notAllowed(resource: string, namespace = ''): WatchEntry {
  return entry(resource, namespace, {
    informer: undefined,
    state: { phase: 'stopped', reason: NOT_ALLOWED, since: t0, synced: false },
    error: `you may not list and watch ${resource} in any namespace`,
    errorKind: 'not-allowed',
  });
}

describe('the view of a user whose permissions scope the watches (issue 23, part 2)', () => {
  const entries = [entry('pods', 'payments', { limitedByAccess: true }), entry('pods', 'shop', { limitedByAccess: true }), entry('configmaps', ''), notAllowed('secrets')];

  it('V18 the scope line names the namespaces the user may list, where all namespaces were asked for', () => {
    const scope = viewScope({ contexts: [], namespaces: [] }, entries);
    assert.equal(scope.description, 'shared · payments, shop: the namespaces you may list');
    assert.equal(scope.lines[1], 'Namespaces: payments, shop (the namespaces you may list)');
    assert.equal(viewMessage({ contexts: [], namespaces: [] }, entries), 'Showing shared · payments, shop: the namespaces you may list');
    assert.equal(viewScope({ contexts: [], namespaces: ['shop'] }, entries).description, 'shared · shop', 'configured namespaces are said as configured');
    assert.equal(viewScope({ contexts: [], namespaces: [] }, [entry('pods', '')]).description, 'shared · all namespaces');
  });

  it('U08 with two contexts, the namespaces the user may list are said for the context they belong to, not for both', () => {
    const other = (resource: string) => ({ ...entry(resource, ''), id: `lab/${resource}`, context: 'lab' });
    const two = [...entries, other('pods'), other('configmaps')];
    const scope = viewScope({ contexts: ['shared', 'lab'], namespaces: [] }, two);
    assert.equal(scope.description, 'shared · payments, shop: the namespaces you may list; lab · all namespaces');
    assert.deepEqual(scope.lines, ['Contexts: shared, lab', 'Namespaces in shared: payments, shop (the namespaces you may list)', 'Namespaces in lab: all']);
    assert.equal(viewScope({ contexts: ['shared', 'lab'], namespaces: [] }, [entry('pods', ''), other('pods')]).description, 'shared, lab · all namespaces', 'one scope for both when nothing differs');
  });

  it('V18 V19 the status bar counts the watches that run, green, and names the types not allowed in its tooltip', () => {
    const m = new StatusBarState().update(entries, t0 + 60_000);
    assert.equal(m.text, '$(eye) 3/3');
    assert.equal(m.background, 'none');
    assert.match(m.tooltip, /Not allowed for you, so not watched: shared\/secrets/);
    assert.equal(m.ariaLabel, 'Kube Watch: 3 of 3 watches live');
    // Ten minutes on, still nothing red: nothing will heal by waiting.
    assert.equal(new StatusBarState().update(entries, t0 + 600_000).background, 'none');
    const none = new StatusBarState().update([notAllowed('secrets'), notAllowed('nodes')], t0);
    assert.equal(none.text, '$(circle-slash) Not allowed');
    assert.equal(none.background, 'none');
  });

  it('V19 a type forbidden everywhere is one quiet row: "not allowed for you", grey, nothing under it', () => {
    const state = describeWatchState(notAllowed('secrets'), t0);
    assert.deepEqual(state, { text: 'not allowed for you', icon: 'circle-slash', color: 'disabledForeground', tone: 'idle' });
    const row = presentWatch('secrets', notAllowed('secrets'), t0, 'resource');
    assert.equal(row.description, 'not allowed for you');
    assert.equal(row.collapsible, 'none');
    const group = presentWatchGroup('pods', [notAllowed('pods', 'batch'), notAllowed('pods', 'default')], t0);
    assert.equal(group.description, 'not allowed for you');
    assert.equal(group.collapsible, 'none');
  });
});
