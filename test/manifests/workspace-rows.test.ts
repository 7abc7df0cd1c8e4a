import assert from 'node:assert/strict';
import { Emitter } from '../../src/base';
import { WorkspaceRows, stateCounts, type WorkspaceManifest } from '../../src/ui/tree/workspace-rows';

describe('manifests: the Workspace section of the view', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const manifests: WorkspaceManifest[] = [
    { uri: 'file:///w/shop/web.yaml', folder: 'shop', file: 'web.yaml', problems: [], documents: [
      { label: 'Deployment shop/web', state: { kind: 'drifted', context: 'prod', fields: ['spec.replicas'], conflicts: [] } },
      { label: 'ConfigMap shop/web-config', state: { kind: 'in-sync', context: 'prod' } },
    ] },
    { uri: 'file:///w/shop/cache.yaml', folder: 'shop', file: 'cache.yaml', problems: [], documents: [{ label: 'Deployment shop/cache', state: { kind: 'missing', context: 'prod' } }] },
    { uri: 'file:///w/base/ns.yaml', folder: 'base', file: 'ns.yaml', problems: [], documents: [{ label: 'Namespace shop', state: { kind: 'in-sync', context: 'prod' } }] },
  ];
  const changes = new Emitter<void>();
  let shown = manifests;
  const rows = new WorkspaceRows({ manifests: () => shown, onDidChange: (l) => changes.on(l) });

  it('lists the manifests by folder, with the counts of drifted and missing in the description', () => {
    const root = rows.root()!;
    assert.deepEqual(rows.present(root, now), { label: 'Workspace', description: '3 files · 1 drifted · 1 missing', icon: { id: 'files' }, collapsible: 'collapsed', contextValue: 'workspace' });
    const folders = rows.children(root);
    assert.deepEqual(folders.map((f) => [rows.present(f, now).label, rows.present(f, now).description]), [['base', 'in sync'], ['shop', '1 drifted · 1 missing']]);
    const files = rows.children(folders[1]);
    assert.deepEqual(files.map((f) => rows.present(f, now).label), ['cache.yaml', 'web.yaml']);
    const docs = rows.children(files[1]);
    assert.deepEqual(docs.map((d) => [rows.present(d, now).label, rows.present(d, now).description]), [
      ['Deployment shop/web', 'drifted · 1 field (spec.replicas) · prod'],
      ['ConfigMap shop/web-config', 'in sync · prod'],
    ]);
    assert.equal(rows.children(root)[1], folders[1], 'stable rows');
    assert.equal(rows.uriOf(docs[0]), 'file:///w/shop/web.yaml');
  });

  it('no section without manifests; never in sync while something is not live', () => {
    shown = [];
    assert.equal(rows.root(), undefined);
    shown = manifests;
    assert.equal(stateCounts([{ kind: 'in-sync', context: 'c' }, { kind: 'unreachable', context: 'c', cause: 'unreachable', since: now }]), '1 not live');
  });
});
