import { restrictedSetting, type SettingsSource } from '../trusted-settings';

/**
 * `kubeWatch.workspace.context` is resource-scoped: each workspace folder may compare its
 * manifests with its own context. Read per file from the settings of the folder holding it
 * (the workspace's without one), through the restricted reader (W13): a workspace's or folder's
 * value only in a trusted workspace, else the user's own. Undefined: the current context.
 */
export interface FolderSettings {
  /** The workspace folder holding `uri` (its uri as a string), or undefined outside every folder. */
  folderOf(uri: string): string | undefined;
  /** The workspace folders (their uris), in order. */
  folders(): readonly string[];
  /** The `kubeWatch` section as seen from `folder` (the workspace's when undefined). */
  settings(folder: string | undefined): SettingsSource;
}

export function workspaceContextOf(source: FolderSettings, uri: string | undefined, trusted: boolean): string | undefined {
  const folder = uri === undefined ? source.folders()[0] : source.folderOf(uri);
  return contextSetting(source.settings(folder), trusted);
}

/** The context each folder compares with (undefined: the current one), in the folders' order. */
export function workspaceContexts(source: FolderSettings, trusted: boolean): (string | undefined)[] {
  const folders = source.folders();
  return (folders.length ? folders : [undefined]).map((f) => contextSetting(source.settings(f), trusted));
}

function contextSetting(settings: SettingsSource, trusted: boolean): string | undefined {
  const value = restrictedSetting<unknown>(settings, 'workspace.context', '', trusted);
  return (typeof value === 'string' && value.trim()) || undefined;
}
