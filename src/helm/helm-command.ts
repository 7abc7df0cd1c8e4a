import * as path from 'node:path';

/**
 * The `helm` CLI commands Kube Watch runs for a release, pinned to the cluster the release was
 * seen on (WRITES.md W01): `--kube-context` and `--namespace` always given, and the kubeconfig
 * the watch manager read that context from, never left to helm's own defaults. Arguments are a
 * list (no shell); `commandText` quotes them for the user to copy when helm is not on the PATH.
 */

/** Where a release lives: the context and kubeconfig files it was read through, and its namespace. */
export interface ReleaseTarget {
  readonly context: string;
  /**
   * The kubeconfig files the manager read the context from (the session's own list). One file:
   * `--kubeconfig FILE` (helm takes a single path there). Several (a merged KUBECONFIG list):
   * the same list in helm's KUBECONFIG (`helmEnvironment`), which merges them as the manager did.
   * Empty: the in-cluster configuration, helm's default.
   */
  readonly kubeconfigFiles: readonly string[];
  readonly namespace: string;
  readonly release: string;
}

export type HelmOperation =
  | { readonly kind: 'rollback'; readonly revision: number }
  | { readonly kind: 'uninstall' }
  /** An upgrade of the chart reference `chart` (a repo/name, OCI URL or path) at `version`, with the values file given. */
  | { readonly kind: 'upgrade'; readonly chart: string; readonly version: string | undefined; readonly valuesFile: string };

/** The pinning flags every command carries. */
export function pinnedFlags(target: ReleaseTarget): string[] {
  const flags = ['--kube-context', target.context];
  if (target.kubeconfigFiles.length === 1) flags.push('--kubeconfig', target.kubeconfigFiles[0]);
  flags.push('--namespace', target.namespace);
  return flags;
}

/** The arguments of `helm` (without the program) for an operation on a release. */
export function helmArgs(target: ReleaseTarget, op: HelmOperation): string[] {
  switch (op.kind) {
    case 'rollback':
      return ['rollback', target.release, String(op.revision), ...pinnedFlags(target), '--wait'];
    case 'uninstall':
      return ['uninstall', target.release, ...pinnedFlags(target), '--wait'];
    case 'upgrade':
      return ['upgrade', target.release, op.chart, ...(op.version ? ['--version', op.version] : []), '--values', op.valuesFile, ...pinnedFlags(target), '--wait'];
  }
}

/**
 * The environment helm must run with besides the extension host's: KUBECONFIG set to the files the
 * context came from when there are several (and removed when the flag names the one file, so a
 * KUBECONFIG of the host's can never add a different file's context of the same name).
 */
export function helmEnvironment(target: ReleaseTarget): Record<string, string | undefined> {
  return { KUBECONFIG: target.kubeconfigFiles.length > 1 ? target.kubeconfigFiles.join(path.delimiter) : undefined };
}

/** The command as a POSIX shell line to copy (each argument quoted when it needs it; the KUBECONFIG it needs in front). */
export function commandText(args: readonly string[], target?: ReleaseTarget): string {
  const kubeconfig = target ? helmEnvironment(target).KUBECONFIG : undefined;
  return [...(kubeconfig ? [`KUBECONFIG=${shellQuote(kubeconfig)}`] : []), ...['helm', ...args].map(shellQuote)].join(' ');
}

function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The confirmation's sentence: what will run, on which context, for which release and revision. */
export function confirmationText(target: ReleaseTarget, op: HelmOperation, currentRevision: number): string {
  const where = `release ${target.release} in namespace ${target.namespace} on context ${target.context}`;
  switch (op.kind) {
    case 'rollback':
      return `Roll back ${where} from revision ${currentRevision} to revision ${op.revision}?`;
    case 'uninstall':
      return `Uninstall ${where} (revision ${currentRevision})? Its objects are deleted.`;
    case 'upgrade':
      return `Upgrade ${where} (revision ${currentRevision}) to chart ${op.chart}${op.version ? ` ${op.version}` : ''} with the edited values?`;
  }
}
