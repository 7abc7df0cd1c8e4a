/**
 * Settings a cloned repository must not choose for the user (W13): those that pick where writes
 * go or where a listener opens: the kubeconfig file, the contexts, the port-forward bind address,
 * the field manager, the context workspace manifests are compared with and applied to. A workspace's `.vscode/settings.json` is honoured for them only in a trusted
 * workspace; in an untrusted one only the user's own (global) value counts. VS Code does the same
 * for the names package.json lists under `restrictedConfigurations`; this reader does not rely on it.
 */

/** What the readers need of VS Code's `WorkspaceConfiguration` for the `kubeWatch` section (a fake in tests). */
export interface SettingsSource {
  get<T>(key: string, fallback: T): T;
  inspect<T>(key: string): { readonly globalValue?: T } | undefined;
}

/** The restricted settings, as keys of the `kubeWatch` section. */
export const RESTRICTED_SETTINGS = ['kubeconfigPath', 'contexts', 'portForward.address', 'edit.fieldManager', 'workspace.context'] as const;
export type RestrictedSetting = (typeof RESTRICTED_SETTINGS)[number];

/** The value of a restricted setting: the effective one in a trusted workspace, else the user's own (or `fallback`). */
export function restrictedSetting<T>(source: SettingsSource, key: RestrictedSetting, fallback: T, trusted: boolean): T {
  if (trusted) return source.get<T>(key, fallback);
  const own = source.inspect<T>(key)?.globalValue;
  return own === undefined ? fallback : own;
}

export const DEFAULT_FORWARD_ADDRESS = '127.0.0.1';

/** `0.0.0.0`, `::` (and its longer spellings): every interface, reachable from the network. */
export function isWildcardAddress(address: string): boolean {
  return address === '0.0.0.0' || /^[0:]*::?[0:]*$/.test(address);
}

/**
 * The address port-forwards listen on (`kubeWatch.portForward.address`): loopback unless set; a
 * wildcard (`0.0.0.0`, `::`) only when it is the user's own setting, never a workspace's, trusted
 * or not (opening a port to the network is the user's choice alone).
 */
export function forwardBindAddress(source: SettingsSource, trusted: boolean): string {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const address = text(restrictedSetting<unknown>(source, 'portForward.address', DEFAULT_FORWARD_ADDRESS, trusted)) || DEFAULT_FORWARD_ADDRESS;
  if (isWildcardAddress(address) && text(source.inspect<unknown>('portForward.address')?.globalValue) !== address) return DEFAULT_FORWARD_ADDRESS;
  return address;
}
