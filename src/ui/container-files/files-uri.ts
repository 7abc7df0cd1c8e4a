import type { ContainerEntry } from '../../container-files/listing';
import { bytesText } from '../port-forward/forward-rows';

/** The scheme of a container's files in the editor (read-only). */
export const FILES_SCHEME = 'kubewatch-files';

/** Which container's file: the watch entry (its cluster), the pod and container, the path inside. */
export interface ContainerFileRef {
  readonly entryId: string;
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  /** Absolute, inside the container. */
  readonly path: string;
}

/**
 * `kubewatch-files://HEX(entryId)/NAMESPACE/POD/CONTAINER/PATH…`: the entry in the authority
 * (hex, so any id fits there and survives a reload), the rest as path segments, so that a tab
 * reads as the file's own name and a folder's children are plain joins.
 */
export function fileUriParts(ref: ContainerFileRef): { authority: string; path: string } {
  const inside = ref.path.split('/').filter(Boolean);
  return { authority: Buffer.from(ref.entryId, 'utf8').toString('hex'), path: `/${[ref.namespace, ref.pod, ref.container, ...inside].join('/')}` };
}

/** The reference a URI's authority and path name, or undefined when it is not one of ours. */
export function parseFileUri(authority: string, uriPath: string): ContainerFileRef | undefined {
  if (!/^([0-9a-f]{2})+$/.test(authority)) return undefined;
  const [namespace, pod, container, ...inside] = uriPath.split('/').filter(Boolean);
  if (!namespace || !pod || !container) return undefined;
  return { entryId: Buffer.from(authority, 'hex').toString('utf8'), namespace, pod, container, path: `/${inside.join('/')}` };
}

/** The container in words: `shop/web-1 (app)`. */
export function containerTitle(ref: Pick<ContainerFileRef, 'namespace' | 'pod' | 'container'>): string {
  return `${ref.namespace}/${ref.pod} (${ref.container})`;
}

/** One row of the folder picker: an icon id, the name, what it is. */
export function entryRow(entry: ContainerEntry): { icon: string; label: string; description: string } {
  if (entry.type === 'directory') return { icon: 'folder', label: `${entry.name}/`, description: '' };
  if (entry.type === 'symlink') return { icon: 'file-symlink-file', label: entry.name, description: `→ ${entry.linkTarget ?? '?'}` };
  if (entry.type === 'other') return { icon: 'circle-slash', label: entry.name, description: 'not a regular file' };
  return { icon: 'file', label: entry.name, description: bytesText(entry.size) };
}

/** The words of a finished download. */
export function downloadedWords(what: string, where: string, summary: { files: number; folders: number; links: number; skipped: readonly string[]; bytes: number }): string {
  const parts = [`${summary.files} file${summary.files === 1 ? '' : 's'} (${bytesText(summary.bytes)})`];
  if (summary.folders) parts.push(`${summary.folders} folder${summary.folders === 1 ? '' : 's'}`);
  if (summary.links) parts.push(`${summary.links} link${summary.links === 1 ? '' : 's'}`);
  const skipped = summary.skipped.length ? ` ${summary.skipped.length} device or pipe entr${summary.skipped.length === 1 ? 'y was' : 'ies were'} not copied.` : '';
  return `Downloaded ${what} to ${where}: ${parts.join(', ')}.${skipped}`;
}
