import type { KubeTransport } from '../informer/transport';
import { COMMAND_MISSING, runInContainer, type ContainerTarget, type RunOutcome } from './exec-run';
import { FIND_FORMAT, parseFindOutput, parseLsOutput } from './listing';

/**
 * The commands an image offers for its files, found once per container: a listing through GNU
 * `find -printf` (exact, names of any kind), else `ls -la` (BusyBox or GNU), else reading a `tar`
 * archive of the folder; a file read through `cat`, else `tar`; copies only through `tar`.
 */
export interface ContainerTools {
  readonly list?: 'find' | 'ls' | 'tar';
  readonly read?: 'cat' | 'tar';
  readonly tar: boolean;
}

/** Asks the image which commands it has: four short execs, side by side. */
export async function detectTools(transport: KubeTransport, target: ContainerTarget, signal?: AbortSignal): Promise<ContainerTools> {
  const run = (command: string[]) => runInContainer(transport, target, command, { signal });
  const [find, ls, cat, tar] = await Promise.all([
    run(['find', '/', '-maxdepth', '0', '-printf', FIND_FORMAT]),
    run(['ls', '-land', '/']),
    run(['cat', '/dev/null']),
    run(['tar', '--version']),
  ]);
  const dropped = [find, ls, cat, tar].find((o) => o.result.dropped);
  if (dropped) throw new Error(`the connection to the container dropped while its commands were looked for (${dropped.result.dropped})`);
  const hasFind = find.result.exitCode === 0 && parseFindOutput(find.stdout)[0]?.type === 'directory';
  const hasLs = ls.result.exitCode === 0 && parseLsOutput(ls.stdout.toString('utf8'))[0]?.type === 'directory';
  const hasTar = !missing(tar);
  const hasCat = cat.result.exitCode === 0;
  return {
    ...(hasFind ? { list: 'find' as const } : hasLs ? { list: 'ls' as const } : hasTar ? { list: 'tar' as const } : {}),
    ...(hasCat ? { read: 'cat' as const } : hasTar ? { read: 'tar' as const } : {}),
    tar: hasTar,
  };
}

function missing(outcome: RunOutcome): boolean {
  return COMMAND_MISSING.test(outcome.result.message ?? '') || COMMAND_MISSING.test(outcome.stderr);
}

/** The sentence that says how this container's files are reached. */
export function toolsWords(tools: ContainerTools, where: string): string {
  const list = tools.list === 'tar' ? 'listed by reading a tar archive of each folder (the image has neither find nor ls)' : tools.list ? `listed with ${tools.list}` : undefined;
  const read = tools.read ? `read with ${tools.read}` : undefined;
  const copy = tools.tar ? 'copied with tar' : noTarWords(where);
  if (!list) return `The image of ${where} has neither find, ls nor tar: its files cannot be listed. ${tools.tar ? '' : 'A debug container with busybox (Debug Pod…) can reach them at /proc/1/root.'}`.trim();
  return `Files of ${where}: ${[list, read].filter(Boolean).join(', ')}; ${tools.tar ? copy : `downloads and uploads unavailable: ${copy}`}.`;
}

/** The refusal of a copy in an image without tar, in words. */
export function noTarWords(where: string): string {
  return `the image has no tar: Download and Upload copy files through tar in the container, as kubectl cp does, and ${where} has none (a distroless or scratch image). Files can still be browsed and opened; to copy, add a debug container with tar (Debug Pod…) or use an image with tar`;
}
