/**
 * Who the server records as the author of Kube Watch's writes (managedFields, server-side apply
 * conflicts): `kubeWatch.edit.fieldManager`, `kube-watch` unless set. Every write (an edit's
 * update or apply, an action) reads it here when it is planned; the VS Code adapter sets it from
 * a setting honoured only where it is trusted (a cloned repository's workspace settings cannot
 * make writes appear under another tool's name). Until set, and in tests, the default.
 */

export const DEFAULT_FIELD_MANAGER = 'kube-watch';

let current = DEFAULT_FIELD_MANAGER;

/** The field manager writes are sent with now. */
export function fieldManager(): string {
  return current;
}

/**
 * Sets the field manager; undefined, empty or one the server would refuse (over 128 characters,
 * or not printable) falls back to the default. Returns the one in force.
 */
export function setFieldManager(name: string | undefined): string {
  const trimmed = name?.trim() ?? '';
  current = isValidFieldManager(trimmed) ? trimmed : DEFAULT_FIELD_MANAGER;
  return current;
}

/** As kube-apiserver validates `fieldManager`: 1 to 128 printable characters. */
export function isValidFieldManager(name: string): boolean {
  return name.length > 0 && [...name].length <= 128 && !/[\p{C}]/u.test(name);
}
