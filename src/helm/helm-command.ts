/**
 * The `helm` CLI commands Kube Watch runs for a release, pinned to the cluster the release was
 * seen on (WRITES.md W01): `--kube-context`, `--kubeconfig` and `--namespace` always given, never
 * left to helm's current context. Arguments are a list (no shell); `commandText` quotes them for
 * the user to copy when helm is not on the PATH.
 */

/** Where a release lives: the context and kubeconfig file it was read through, and its namespace. */
export interface ReleaseTarget {
  readonly context: string;
  /** The kubeconfig file(s) the context came from (several joined as KUBECONFIG does); undefined: helm's default. */
  readonly kubeconfig: string | undefined;
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
  if (target.kubeconfig) flags.push('--kubeconfig', target.kubeconfig);
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

/** The command as a POSIX shell line to copy (each argument quoted when it needs it). */
export function commandText(args: readonly string[]): string {
  return ['helm', ...args].map(shellQuote).join(' ');
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
