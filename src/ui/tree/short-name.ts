import type { KubeObject } from '../../informer';

/** The ellipsis that stands for a generated part of a name. */
const ELLIPSIS = '…';

/**
 * Characters a Pod row has for its title and its status together at the default side bar width
 * (300 px, a Pod under its namespace: about 210 px of text, some 29 characters), with room for
 * the ellipsis VS Code draws where a description goes on past the edge; measured in the browser (V27).
 */
export const POD_ROW_CHARS = 27;

/** Room the description needs after the status when more fields follow: " ·" and VS Code's ellipsis. */
const MORE_FIELDS = 3;

/** A generated Pod name in its parts: its owner's name and its own suffix (the parts controllers generated between them left out). */
function generatedParts(pod: KubeObject): { owner: string; suffix: string } | undefined {
  const name = pod.metadata.name ?? '';
  const labels = pod.metadata.labels ?? {};
  const hash = labels['pod-template-hash'];
  if (hash) {
    const marker = `-${hash}-`;
    const at = name.lastIndexOf(marker);
    if (at > 0) return { owner: name.slice(0, at), suffix: name.slice(at + marker.length) };
  }
  const job = labels['batch.kubernetes.io/job-name'] ?? labels['job-name'];
  if (job && name.startsWith(`${job}-`)) {
    const scheduled = /^(.+)-\d{8,}$/.exec(job);
    return { owner: scheduled ? scheduled[1] : job, suffix: name.slice(job.length + 1) };
  }
  return undefined;
}

/**
 * A Pod's name as its row's title, so that its status fits beside it at the default side bar
 * width: the parts its controllers generated (a ReplicaSet's pod-template-hash, a Job's name
 * before the pod's suffix, a CronJob's schedule time) are left out, keeping what tells the pods
 * apart, the owner's name and the pod's own suffix: `ledger-6d5f7c8b9-z9w4c` reads
 * `ledger…z9w4c`. When the title and `status` still need more than POD_ROW_CHARS, the owner's
 * name is cut at a hyphen (`nightly-report-29013840-7hxkq`, Completed: `nightly…7hxkq`). The whole
 * name is in the tooltip, the YAML tab and every command; other names are returned as they are.
 */
export function podTitle(pod: KubeObject, status = ''): string {
  const parts = generatedParts(pod);
  if (!parts) return pod.metadata.name ?? '';
  const room = Math.max(3, POD_ROW_CHARS - 1 - status.length - ELLIPSIS.length - parts.suffix.length);
  let owner = parts.owner;
  if (owner.length > room) {
    const hyphen = owner.lastIndexOf('-', room);
    owner = hyphen >= 3 ? owner.slice(0, hyphen) : owner.slice(0, room);
  }
  return `${owner}${ELLIPSIS}${parts.suffix}`;
}

/**
 * True when a Pod row shows only its status beside its title: at the default width the status
 * fits beside the title, but the fields after it (ready, restarts, age) would push VS Code's
 * ellipsis over the status's end. They are in the row's tooltip, which prints the whole
 * `kubectl get` row. (A title too long for its status either way keeps every field.)
 */
export function podStatusOnly(title: string, status: string): boolean {
  const fits = title.length + 1 + status.length <= POD_ROW_CHARS;
  return fits && title.length + 1 + status.length + MORE_FIELDS > POD_ROW_CHARS;
}
