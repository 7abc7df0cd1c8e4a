import * as vscode from 'vscode';
import { systemClock, type Clock } from '../../base';
import {
  ACTIONS,
  ActionNotPossible,
  WriteJournal,
  actionById,
  applicableActions,
  listRevisions,
  manualJobName,
  jobNameProblem,
  planCordon,
  planCreateJob,
  planDelete,
  planRestart,
  planScale,
  planSuspend,
  planUndo,
  currentReplicas,
  replicasProblem,
  runPlan,
  targetTitle,
  type ActionDefinition,
  type ActionId,
  type ActionPlan,
  type ActionSession,
  type ActionTarget,
  type JournalWatchSource,
} from '../../actions';
import { accessQueryText } from '../../cluster/access-review';
import { RowActions, actionChoices, deleteChoices, revisionChoices } from '../../ui/actions';
import { askText, confirmPlan, copyText, pickChoice } from './action-dialogs';
import { objectRefOf, pickObject, targetOf, type ActionSource, type ObjectRef } from './action-targets';
import { drainFlow } from './drain-flow';
import { registerEditorActionContext } from './editor-action-context';

/** The command of each action (package.json `contributes.commands`). */
export const ACTION_COMMANDS: Record<ActionId, string> = {
  delete: 'kubeWatch.action.delete',
  scale: 'kubeWatch.action.scale',
  restart: 'kubeWatch.action.restart',
  undo: 'kubeWatch.action.undo',
  cordon: 'kubeWatch.action.cordon',
  uncordon: 'kubeWatch.action.uncordon',
  drain: 'kubeWatch.action.drain',
  suspend: 'kubeWatch.action.suspend',
  resume: 'kubeWatch.action.resume',
  createJob: 'kubeWatch.action.createJob',
  copyName: 'kubeWatch.action.copyName',
  copyKubectl: 'kubeWatch.action.copyKubectl',
};
/** "Actions…": every action an object offers, in one list (the YAML's title bar, the palette). */
export const ACTIONS_COMMAND = 'kubeWatch.actions';

/** The write journal and the rows' actions, for the tree, the edit saves and the tests. */
export interface ActionsRegistration extends vscode.Disposable {
  readonly journal: WriteJournal;
  readonly rows: RowActions;
}

/**
 * The actions on objects: one command per action (argument: a tree row, a YAML document's URI, or
 * none: then a picker over the watched objects it applies to) and "Actions…". Each asks what it
 * needs (replicas, grace period, revision, …), checks the user may (access reviews; a refusal in
 * words), confirms with the plan's words and kubectl command, then writes through the context's
 * transport; the journal keeps the write pending on its row until the watch shows it and writes
 * its line to the watch log. Disposing unregisters everything and drops the journal.
 */
export function registerActions(manager: ActionSource & JournalWatchSource, log: { readonly channel: vscode.LogOutputChannel }, clock: Clock = systemClock): ActionsRegistration {
  const journal = new WriteJournal(manager, { clock });
  const rows = new RowActions(manager, journal, clock);
  const disposables: vscode.Disposable[] = [];

  disposables.push(
    journal.onLine((line) => {
      if (line.level === 'error') log.channel.error(line.text);
      else if (line.level === 'warn') log.channel.warn(line.text);
      else if (line.level === 'info') log.channel.info(line.text);
      else log.channel.debug(line.text);
    }),
  );

  const sessionOf = (ref: ObjectRef): ActionSession | undefined => {
    const transport = manager.transportOf(ref.entryId);
    return transport ? { transport, journal, access: manager.accessReviewsOf(ref.entryId), user: manager.userOf(ref.entryId) } : undefined;
  };

  /** The words of the first thing the user may not do for `action` on `target`, or undefined. */
  const refusal = async (ref: ObjectRef, action: ActionDefinition, target: ActionTarget): Promise<string | undefined> => {
    const access = manager.accessReviewsOf(ref.entryId);
    if (!access) return undefined;
    for (const query of action.needs(target)) {
      const answer = await access.can(query);
      if (!answer.allowed) {
        const user = manager.userOf(ref.entryId);
        return `Not allowed: ${user ? `user "${user}"` : 'you'} may not ${accessQueryText(query)}${target.context ? ` (context ${target.context})` : ''}. The cluster's access rules (RBAC) do not allow it, so ${action.title.replace(/…$/, '')} is not offered.`;
      }
    }
    return undefined;
  };

  /** Asks what the action needs and returns its plan; undefined when cancelled or said why not. */
  const planFor = async (id: ActionId, target: ActionTarget, ref: ObjectRef): Promise<ActionPlan | undefined> => {
    const title = targetTitle(target);
    switch (id) {
      case 'scale': {
        const text = await askText(`Scale ${title}`, `Replicas (now ${currentReplicas(target)})`, String(currentReplicas(target)), replicasProblem);
        return text === undefined ? undefined : planScale(target, Number(text.trim()));
      }
      case 'restart':
        return planRestart(target, clock.now());
      case 'undo': {
        const transport = manager.transportOf(ref.entryId);
        if (!transport) return undefined;
        const revisions = await listRevisions(transport, target, new AbortController().signal);
        const choices = revisionChoices(revisions, clock.now());
        if (choices.length === 0) throw new ActionNotPossible(`no rollout history found for deployment "${target.name}"`);
        const to = await pickChoice(choices, `Rollout Undo ${title}`, 'The revision to roll back to');
        return to && planUndo(target, to);
      }
      case 'delete': {
        const choices = deleteChoices(target);
        if (choices.length === 0) return planDelete(target);
        const options = await pickChoice(choices, `Delete ${title}`, target.type.resource === 'pods' ? 'Grace period' : 'What happens to what it owns');
        return options && planDelete(target, options);
      }
      case 'cordon':
      case 'uncordon':
        return planCordon(target, id === 'cordon');
      case 'suspend':
      case 'resume':
        return planSuspend(target, id === 'suspend');
      case 'createJob': {
        const name = await askText(`Create Job from ${title}`, 'Name of the Job', manualJobName(target.name, Math.random), jobNameProblem);
        return name === undefined ? undefined : planCreateJob(target, name);
      }
      default:
        return undefined;
    }
  };

  /** One action on one object: `copy` only copies its kubectl command. */
  const run = async (id: ActionId, arg: unknown, mode: 'do' | 'copy' = 'do'): Promise<void> => {
    const action = actionById(id);
    const ref = objectRefOf(arg) ?? (await pickObject(manager, `${action.title.replace(/…$/, '')}: pick an object`, action));
    if (!ref) return;
    const target = targetOf(manager, ref);
    if (!target) {
      void vscode.window.showWarningMessage(`${ref.namespace ? `${ref.namespace}/` : ''}${ref.name} is no longer in the watched cache.`);
      return;
    }
    if (id === 'copyName') return copyText(target.name, 'the name');
    if (id === 'copyKubectl') return copyCommand(ref, target);
    if (!action.appliesTo(target)) {
      void vscode.window.showInformationMessage(`${action.title.replace(/…$/, '')} does not apply to ${targetTitle(target)} now.`);
      return;
    }
    try {
      if (mode === 'do') {
        const refused = await refusal(ref, action, target);
        if (refused) {
          void vscode.window.showWarningMessage(refused);
          return;
        }
      }
      if (id === 'drain') {
        const transport = manager.transportOf(ref.entryId);
        const session = sessionOf(ref);
        if (transport && session) await drainFlow(target, transport, session, mode, clock);
        return;
      }
      const plan = await planFor(id, target, ref);
      if (!plan) return;
      if (mode === 'copy') return copyText(plan.kubectl, 'the kubectl command');
      if ((await confirmPlan(plan)) !== 'confirmed') return;
      const session = sessionOf(ref);
      if (!session) {
        void vscode.window.showErrorMessage(`${targetTitle(target)}: its context has no connection now.`);
        return;
      }
      const result = await runPlan(plan, session, new AbortController().signal);
      if (result.ok) vscode.window.setStatusBarMessage(`$(check) ${plan.verb} ${targetTitle(target)}: accepted by the server; its row says when the watch shows it`, 4000);
      else void vscode.window.showErrorMessage(`Could not ${plan.verb} ${targetTitle(target)}. ${result.words}`);
    } catch (err) {
      if (err instanceof ActionNotPossible) void vscode.window.showInformationMessage(`${targetTitle(target)}: ${err.message}`);
      else void vscode.window.showErrorMessage(`${action.title.replace(/…$/, '')} ${targetTitle(target)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  /** Copy kubectl Command…: which action, its inputs, then the command on the clipboard (nothing is sent). */
  const copyCommand = async (ref: ObjectRef, target: ActionTarget): Promise<void> => {
    const writes = applicableActions(target).filter((a) => a.writes);
    const chosen = await pickChoice(actionChoices(writes), `Copy the kubectl command of an action on ${targetTitle(target)}`, 'Action');
    if (chosen) await run(chosen.id, ref, 'copy');
  };

  /** Actions…: the actions the user may do on the object, then the chosen one. */
  const pickAction = async (arg: unknown): Promise<void> => {
    const ref = objectRefOf(arg) ?? (await pickObject(manager, 'Actions: pick an object'));
    if (!ref) return;
    const target = targetOf(manager, ref);
    if (!target) return;
    const offered: ActionDefinition[] = [];
    for (const action of applicableActions(target)) if (!action.writes || (await refusal(ref, action, target)) === undefined) offered.push(action);
    const chosen = await pickChoice(actionChoices(offered), `Actions on ${targetTitle(target)}`, 'Action');
    if (chosen) await run(chosen.id, ref);
  };

  for (const action of ACTIONS) disposables.push(vscode.commands.registerCommand(ACTION_COMMANDS[action.id], (arg?: unknown) => run(action.id, arg)));
  disposables.push(vscode.commands.registerCommand(ACTIONS_COMMAND, (arg?: unknown) => pickAction(arg)), registerEditorActionContext(manager, rows));

  return {
    journal,
    rows,
    dispose() {
      for (const d of disposables.splice(0)) d.dispose();
      rows.dispose();
      journal.dispose();
    },
  };
}
