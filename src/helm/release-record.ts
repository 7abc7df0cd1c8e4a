import type { KubeObject } from '../informer';

/** Where Helm keeps a release's revisions: its Secret driver (the default) or its ConfigMap driver. */
export type ReleaseStorage = 'secret' | 'configmap';

/**
 * One revision of a release as its storage object's labels tell it (helm's pkg/storage/driver:
 * `name`, `owner=helm`, `status`, `version`, `modifiedAt`), read without the payload: a
 * metadata-only watch carries exactly this much.
 */
export interface RevisionRecord {
  readonly name: string;
  readonly namespace: string;
  readonly revision: number;
  /** Helm's status: deployed, superseded, failed, uninstalling, uninstalled, pending-install, pending-upgrade, pending-rollback, unknown. */
  readonly status: string;
  /** When helm last wrote it (`modifiedAt`, Unix seconds), else the object's creation; ms since the epoch, or undefined. */
  readonly modifiedAt: number | undefined;
  readonly storage: ReleaseStorage;
  /** The Secret's or ConfigMap's name: `sh.helm.release.v1.NAME.vREVISION`. */
  readonly objectName: string;
  readonly uid: string | undefined;
}

const OBJECT_NAME = /^sh\.helm\.release\.v1\.(.+)\.v(\d+)$/;

/** The storage object's name of a release revision (helm's `makeKey`). */
export function releaseObjectName(name: string, revision: number): string {
  return `sh.helm.release.v1.${name}.v${revision}`;
}

/**
 * The revision an `owner=helm` object stands for, or undefined when it is not one (no `name`
 * label and a name not in helm's form). Labels win; the object's name fills in what they lack.
 */
export function revisionRecordOf(obj: KubeObject, storage: ReleaseStorage): RevisionRecord | undefined {
  const meta = obj.metadata;
  const labels = meta.labels ?? {};
  if (labels.owner !== undefined && labels.owner.toLowerCase() !== 'helm') return undefined;
  const objectName = meta.name ?? '';
  const fromName = OBJECT_NAME.exec(objectName);
  const name = labels.name || fromName?.[1];
  const revision = Number(labels.version ?? fromName?.[2]);
  if (!name || !Number.isInteger(revision) || revision <= 0) return undefined;
  const modified = Number(labels.modifiedAt);
  const created = meta.creationTimestamp ? Date.parse(meta.creationTimestamp) : NaN;
  return {
    name,
    namespace: meta.namespace ?? '',
    revision,
    status: labels.status || 'unknown',
    modifiedAt: Number.isFinite(modified) && modified > 0 ? modified * 1000 : Number.isFinite(created) ? created : undefined,
    storage,
    objectName,
    uid: meta.uid,
  };
}
