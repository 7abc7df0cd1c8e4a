import { defaultGraceSeconds, isNamespace, type ActionDefinition, type ActionPlan, type ActionTarget, type DeleteOptions, type DrainOptions, type Propagation, type Revision } from '../../actions';
import { objectAge } from '../age';

/**
 * What the action dialogs show, VS Code-free: the confirmation of a plan (its words, its kubectl
 * command, the button), the choices of Delete, Rollout Undo and Drain, and the pick lists of the
 * palette. The adapter (src/vscode/actions) only turns them into dialogs and quick picks.
 */

/** A confirmation: a modal dialog with the plan's words, or nothing when the setting skips it. */
export interface Confirmation {
  readonly message: string;
  readonly detail: string;
  /** The button that does it. */
  readonly confirm: string;
  /** The button that copies the kubectl command instead. */
  readonly copy: string;
  /** The user types this first (a namespace's name). */
  readonly typeToConfirm?: string;
  /** No dialog: a reversible action and the setting says not to ask. */
  readonly skip: boolean;
}

export const COPY_KUBECTL = 'Copy kubectl Command';

export function confirmationOf(plan: ActionPlan, confirmReversible: boolean): Confirmation {
  return {
    message: plan.title,
    detail: `${plan.detail}\n\nkubectl equivalent:\n${plan.kubectl}`,
    confirm: plan.button,
    copy: COPY_KUBECTL,
    ...(plan.typeToConfirm ? { typeToConfirm: plan.typeToConfirm } : {}),
    skip: plan.reversible && !confirmReversible && !plan.typeToConfirm,
  };
}

/** The prompt and check of a typed confirmation: undefined once the text is the name. */
export function typedNameProblem(expected: string, typed: string): string | undefined {
  return typed === expected ? undefined : `Type ${expected} to confirm`;
}

/** A choice in a quick pick, with what it decides. */
export interface Choice<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly value: T;
}

/**
 * The choices of Delete: for a Pod, its grace period (its own, or none); for anything else, what
 * happens to what it owns. A namespace has none (its name is typed instead).
 */
export function deleteChoices(target: ActionTarget): Choice<DeleteOptions>[] {
  if (isNamespace(target)) return [];
  const grace = defaultGraceSeconds(target);
  if (grace !== undefined) {
    return [
      { label: `Graceful: ${grace} s`, description: '--grace-period default', detail: "The Pod's own terminationGracePeriodSeconds: its containers get SIGTERM, then SIGKILL after it.", value: {} },
      { label: 'Immediately: grace period 0', description: '--grace-period=0', detail: 'Its containers are killed without waiting (a stuck Pod). The kubelet may still be running them for a moment.', value: { gracePeriodSeconds: 0 } },
    ];
  }
  const propagation = (p: Propagation, detail: string): Choice<DeleteOptions> => ({ label: p, description: p === 'Background' ? 'default · --cascade=background' : `--cascade=${p.toLowerCase()}`, detail, value: { propagation: p } });
  return [
    propagation('Background', 'Deleted now; what it owns (ReplicaSets, Pods, Jobs…) is deleted by the garbage collector after it.'),
    propagation('Foreground', 'Marked for deletion; what it owns is deleted first, then it goes.'),
    propagation('Orphan', 'Deleted; what it owns stays, without an owner.'),
  ];
}

/** The revisions Rollout Undo offers: every one but the current, newest first, the previous marked as kubectl's default. */
export function revisionChoices(revisions: readonly Revision[], now: number): Choice<Revision>[] {
  const older = revisions.filter((r) => !r.current);
  const previous = [...revisions].sort((a, b) => b.revision - a.revision)[1];
  return older.map((r) => ({
    label: `Revision ${r.revision}`,
    description: [r.images.join(', '), r === previous ? '(previous: kubectl rollout undo without --to-revision)' : ''].filter(Boolean).join(' '),
    detail: `ReplicaSet ${r.replicaSet.metadata.name ?? ''}${r.replicaSet.metadata.creationTimestamp ? ` · created ${objectAge(r.replicaSet.metadata.creationTimestamp, now)} ago` : ''}`,
    value: r,
  }));
}

/** The options of Drain, as kubectl's flags, none chosen by default (kubectl's defaults). */
export function drainOptionChoices(): Choice<keyof Pick<DrainOptions, 'ignoreDaemonSets' | 'deleteEmptyDirData' | 'force'>>[] {
  return [
    { label: 'Ignore DaemonSet Pods', description: '--ignore-daemonsets', detail: 'They stay on the node (their DaemonSet would put them back anyway).', value: 'ignoreDaemonSets' },
    { label: 'Delete emptyDir data', description: '--delete-emptydir-data', detail: 'Pods with emptyDir volumes go, and the data in those volumes with them.', value: 'deleteEmptyDirData' },
    { label: 'Force Pods without a controller', description: '--force', detail: 'Pods no ReplicaSet, Job or StatefulSet owns go, and nothing brings them back.', value: 'force' },
  ];
}

/** One entry of the Actions… list of an object. */
export function actionChoices(actions: readonly ActionDefinition[]): Choice<ActionDefinition>[] {
  return actions.map((a) => ({
    label: a.title,
    description: a.writes ? (a.reversible ? 'reversible' : undefined) : 'changes nothing',
    value: a,
  }));
}
