import * as vscode from 'vscode';
import { forwardBindAddress, RESTRICTED_SETTINGS } from '../ui/trusted-settings';
import { readWatchSettings, toWatchConfig, type KubeWatchSettings } from '../ui/watch-settings';
import type { WatchConfig } from '../manager';

const SECTION = 'kubeWatch';

/** Reads `kubeWatch.*`; the restricted ones (kubeconfig path, contexts) as W13 allows in this workspace (watch-settings.ts). */
export function readSettings(): KubeWatchSettings {
  return readWatchSettings(vscode.workspace.getConfiguration(SECTION), vscode.workspace.isTrusted);
}

/** Where port-forwards listen (`kubeWatch.portForward.address`): a workspace's value only when trusted, a wildcard only from the user's own settings. */
export function readForwardBindAddress(): string {
  return forwardBindAddress(vscode.workspace.getConfiguration(SECTION), vscode.workspace.isTrusted);
}

/** The HTTP/2 health check settings (`kubeWatch.connection.*`), in milliseconds. */
export function readConnectionSettings(): { readIdleMs: number; pingTimeoutMs: number } {
  const c = vscode.workspace.getConfiguration(SECTION);
  const seconds = (key: string, fallback: number) => {
    const v = c.get<number>(key, fallback);
    return (typeof v === 'number' && Number.isFinite(v) && v >= 1 ? v : fallback) * 1000;
  };
  return { readIdleMs: seconds('connection.readIdleSeconds', 15), pingTimeoutMs: seconds('connection.pingTimeoutSeconds', 10) };
}

/**
 * VS Code's own proxy (`http.proxy`), which the manager uses for clusters where HTTPS_PROXY /
 * HTTP_PROXY name none (NO_PROXY and loopback still exempt them). Undefined when unset.
 */
export function readEditorProxy(): string | undefined {
  const value = vscode.workspace.getConfiguration('http').get<string>('proxy', '');
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export function readWatchConfig(): WatchConfig {
  return toWatchConfig(readSettings());
}

/** Fires when a `kubeWatch.*` setting changes or the workspace becomes trusted. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) listener();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(listener),
  );
}

/**
 * Writes a setting where the user keeps it: in the workspace when the workspace already sets
 * it (and, for a restricted setting, is trusted), else in the user settings.
 */
export async function writeSetting(key: keyof KubeWatchSettings, value: unknown): Promise<void> {
  const c = vscode.workspace.getConfiguration(SECTION);
  const inspected = c.inspect(key);
  // An untrusted workspace's value of a restricted setting is not read (W13): writing there would change nothing the user sees.
  const target =
    !vscode.workspace.isTrusted && (RESTRICTED_SETTINGS as readonly string[]).includes(key)
      ? vscode.ConfigurationTarget.Global
      : inspected?.workspaceFolderValue !== undefined
        ? vscode.ConfigurationTarget.WorkspaceFolder
        : inspected?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
  await c.update(key, value, target);
}

/** `kubeWatch.health.windowMinutes` in milliseconds: how far back the Watch Health panel reaches. */
export function readHealthWindowMs(): number {
  const minutes = vscode.workspace.getConfiguration(SECTION).get<number>('health.windowMinutes', 60);
  return Math.min(Math.max(Number.isFinite(minutes) ? minutes : 60, 5), 360) * 60_000;
}
