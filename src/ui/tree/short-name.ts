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
 * The longest owner name a Pod title keeps whole: with the ellipsis, a ReplicaSet's 5-character
 * suffix and a status as long as `Completed`, it fills a row at the default width (POD_ROW_CHARS
 * and the 2 characters of VS Code's ellipsis no status-only description needs). A longer one is
 * cut at a hyphen within it, by its own length alone, so that every pod of one owner reads the same.
 */
const OWNER_CHARS = POD_ROW_CHARS + 2 - ' Completed'.length - '…12345'.length;

/**
 * A Pod's name as its row's title: the parts its controllers generated (a ReplicaSet's
 * pod-template-hash, a Job's name before the pod's suffix, a CronJob's schedule time) are left
 * out, keeping what tells the pods apart, the owner's name and the pod's own suffix:
 * `ledger-6d5f7c8b9-z9w4c` reads `ledger…z9w4c`. The title never depends on the pod's status:
 * every pod of one owner shows the same owner part (`ledger…b7n2k`, `ledger…z9w4c`), and a status
 * too long for the rest of the row makes the row show the status alone (`podStatusOnly`). Only an
 * owner name longer than OWNER_CHARS is cut, at a hyphen (`a-very-long-deployment-name` reads
 * `a-very-long…z9w4c`, `nightly-report` reads `nightly…7hxkq`). The whole name is in the tooltip, the YAML tab and every command; other
 * names are returned as they are.
 */
export function podTitle(pod: KubeObject): string {
  const parts = generatedParts(pod);
  if (!parts) return pod.metadata.name ?? '';
  return `${ownerPart(parts.owner)}${ELLIPSIS}${parts.suffix}`;
}

/** An owner's name as a Pod title shows it: whole up to OWNER_CHARS, else cut at a hyphen (or at OWNER_CHARS). */
function ownerPart(owner: string): string {
  if (owner.length <= OWNER_CHARS) return owner;
  const hyphen = owner.lastIndexOf('-', OWNER_CHARS);
  return hyphen >= 3 ? owner.slice(0, hyphen) : owner.slice(0, OWNER_CHARS);
}

/**
 * True when a Pod row shows only its status beside its title: the fields after it (ready,
 * restarts, age) would push VS Code's ellipsis over the status's end, or the status does not fit
 * beside the title at all (then it has all the room there is, rather than the title being cut
 * per row). The other fields are in the row's tooltip, which prints the whole `kubectl get` row.
 */
export function podStatusOnly(title: string, status: string): boolean {
  return title.length + 1 + status.length + MORE_FIELDS > POD_ROW_CHARS;
}
