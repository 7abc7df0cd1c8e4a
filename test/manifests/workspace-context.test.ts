import assert from 'node:assert/strict';
import type { SettingsSource } from '../../src/ui/trusted-settings';
import { workspaceContextOf, workspaceContexts, type FolderSettings } from '../../src/ui/manifests/workspace-context';

/** VS Code's layering of one setting: the user's, the workspace's, a folder's (the most specific wins). */
function fakeSettings(values: { global?: string; workspace?: string; folders: Record<string, string | undefined> }): FolderSettings {
  const folders = Object.keys(values.folders);
  return {
    folders: () => folders,
    folderOf: (uri) => folders.find((f) => uri.startsWith(`${f}/`)),
    settings(folder): SettingsSource {
      const effective = (folder !== undefined ? values.folders[folder] : undefined) ?? values.workspace ?? values.global;
      return {
        get: <T>(key: string, fallback: T) => (key === 'workspace.context' && effective !== undefined ? (effective as T) : fallback),
        inspect: <T>(key: string) => (key === 'workspace.context' ? { globalValue: values.global as T | undefined } : undefined),
      };
    },
  };
}

describe('manifests: kubeWatch.workspace.context per workspace folder', () => {
  const source = fakeSettings({ workspace: 'staging', folders: { 'file:///w/prod-app': 'prod', 'file:///w/dev-app': undefined } });

  it("reads each file's own folder's setting in a trusted workspace", () => {
    assert.equal(workspaceContextOf(source, 'file:///w/prod-app/deploy.yaml', true), 'prod');
    assert.equal(workspaceContextOf(source, 'file:///w/dev-app/deploy.yaml', true), 'staging', "a folder without its own value takes the workspace's");
    assert.equal(workspaceContextOf(source, 'file:///elsewhere/x.yaml', true), 'staging');
    assert.deepEqual(workspaceContexts(source, true), ['prod', 'staging']);
  });

  it("honours no workspace or folder value in an untrusted workspace: only the user's own", () => {
    assert.equal(workspaceContextOf(source, 'file:///w/prod-app/deploy.yaml', false), undefined);
    const withOwn = fakeSettings({ global: 'mine', workspace: 'staging', folders: { 'file:///w/prod-app': 'prod' } });
    assert.equal(workspaceContextOf(withOwn, 'file:///w/prod-app/deploy.yaml', false), 'mine');
    assert.deepEqual(workspaceContexts(withOwn, false), ['mine']);
  });

  it('an empty or blank value means the current context', () => {
    const blank = fakeSettings({ folders: { 'file:///w/a': '  ' } });
    assert.equal(workspaceContextOf(blank, 'file:///w/a/x.yaml', true), undefined);
  });
});
