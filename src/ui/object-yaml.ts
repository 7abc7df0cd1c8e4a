import { dump } from 'js-yaml';
import type { KubeObject } from '../informer';

/** What a masked Secret value shows instead of its content. */
export const SECRET_MASK = '••••••';

/** Annotations that carry a copy of the whole object, Secret values included. */
const OBJECT_COPY_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

export interface ObjectYamlOptions {
  /** The object's kind when the object itself lacks it (list items do); decides Secret masking. */
  kind?: string;
  /** `v1`, `apps/v1`, ...: filled in when the object lacks it. */
  apiVersion?: string;
  /** Show Secret values in plain text. Default false: every value of `data` and `stringData` is masked. */
  revealSecrets?: boolean;
  /** Lines put first as YAML comments (`# ` is prepended), e.g. "deleted at … (last known state)". */
  comments?: string[];
}

/**
 * The object as YAML, `apiVersion`, `kind` and `metadata` first, every other field in the
 * server's order and nothing dropped but `metadata.managedFields`. For a Secret, unless
 * revealed, every value of `data` and `stringData` reads SECRET_MASK (the keys stay visible),
 * and so does the last-applied-configuration annotation, which holds the values too.
 * Never mutates `obj`.
 */
export function objectYaml(obj: KubeObject, options: ObjectYamlOptions = {}): string {
  const kind = obj.kind ?? options.kind;
  const apiVersion = obj.apiVersion ?? options.apiVersion;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = obj;
  const shown: Record<string, unknown> = {};
  if (apiVersion !== undefined) shown.apiVersion = apiVersion;
  if (kind !== undefined) shown.kind = kind;
  shown.metadata = metadata;
  Object.assign(shown, rest);
  if (kind === 'Secret' && !options.revealSecrets) maskSecret(shown);
  const header = (options.comments ?? []).map((line) => `# ${line}\n`).join('');
  return header + dump(shown, { noRefs: true, lineWidth: -1, skipInvalid: true });
}

/** True when the object, as `objectYaml` would show it, is a Secret (and so masked unless revealed). */
export function isSecret(obj: KubeObject, kind?: string): boolean {
  return (obj.kind ?? kind) === 'Secret';
}

/** Replaces the values of `data`, `stringData` and object-copy annotations with the mask (on copies). */
function maskSecret(shown: Record<string, unknown>): void {
  for (const field of ['data', 'stringData']) {
    const values = shown[field];
    if (typeof values !== 'object' || values === null) continue;
    shown[field] = Object.fromEntries(Object.keys(values).map((k) => [k, SECRET_MASK]));
  }
  const metadata = shown.metadata as Record<string, unknown>;
  const annotations = metadata.annotations;
  if (typeof annotations === 'object' && annotations !== null) {
    const copy: Record<string, unknown> = { ...(annotations as Record<string, unknown>) };
    for (const key of OBJECT_COPY_ANNOTATIONS) if (key in copy) copy[key] = SECRET_MASK;
    shown.metadata = { ...metadata, annotations: copy };
  }
}
