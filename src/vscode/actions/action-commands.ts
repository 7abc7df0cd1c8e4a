import * as vscode from 'vscode';
import { systemClock, type Clock } from '../../base';
import {
  ACTIONS,
  WriteJournal,
  actionById,
  runActionFlow,
  runActionsMenu,
  type ActionDefinition,
  type ActionDialogPort,
  type ActionFlowDeps,
  type ActionId,
  type ActionSession,
  type JournalWatchSource,
  type PinnedTarget,
} from '../../actions';
import { sameCluster } from '../../manager';
import { RowActions, actionChoices, deleteChoices, revisionChoices } from '../../ui/actions';
import { askText, confirmPlan, copyText, pickChoice } from './action-dialogs';
import { objectRefOf, pickObject, targetOf, type ActionSource } from './action-targets';
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
 * none: then a picker over the watched objects it applies to) and "Actions…". The object is read
 * with its origin when the command starts; the flow (src/actions/action-flow.ts) asks, checks,
 * confirms and writes through that origin only, with these dialogs; the journal keeps the write
 * pending on its row until the watch shows it and writes its line to the watch log. Disposing
 * unregisters everything and drops the journal.
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

  /** The dialogs of the flow, as VS Code shows them. */
  const dialogs: ActionDialogPort = {
    askText,
    pickChoice,
    confirmPlan,
    info: (message) => void vscode.window.showInformationMessage(message),
    warning: (message) => void vscode.window.showWarningMessage(message),
    error: (message, ...buttons) => Promise.resolve(vscode.window.showErrorMessage(message, ...buttons)),
    status: (message) => void vscode.window.setStatusBarMessage(`$(check) ${message}`, 4000),
    copy: copyText,
  };

  /** The flow's ports for an object of entry `entryId`: its writes go through the origin taken where it was read. */
  const depsFor = (entryId: string): ActionFlowDeps => ({
    dialogs,
    choices: { revisions: revisionChoices, deleteOptions: deleteChoices, actions: actionChoices },
    journal,
    clock,
    connect: (origin) => manager.resolveOrigin(origin),
    watched: (pinned) => {
      // Only while the entry still watches the origin's cluster: after a context switch its objects are another cluster's.
      const now = manager.originOf(entryId);
      return now && sameCluster(now, pinned.origin) ? manager.entry(entryId)?.informer?.get(pinned.target.namespace || undefined, pinned.target.name) : undefined;
    },
    drain: async (target, connection, mode) => {
      const session: ActionSession = { transport: connection.transport, journal, access: connection.access, user: connection.user };
      await drainFlow(target, connection.transport, session, mode, clock);
    },
  });

  /** The object a command names, read now with its origin ("which cluster" is decided here, once); undefined when said why not. */
  const pinnedOf = async (arg: unknown, title: string, action?: ActionDefinition): Promise<{ pinned: PinnedTarget; entryId: string } | undefined> => {
    const ref = objectRefOf(arg) ?? (await pickObject(manager, title, action));
    if (!ref) return undefined;
    const target = targetOf(manager, ref);
    const origin = target && manager.originOf(ref.entryId, target.object);
    if (!target || !origin) {
      void vscode.window.showWarningMessage(`${ref.namespace ? `${ref.namespace}/` : ''}${ref.name} is no longer in the watched cache${target ? ' (its context has no connection now)' : ''}.`);
      return undefined;
    }
    // A tree row carries the object it showed: when the watch now has another object under that name (re-created, or the
    // current context switched before the tree redrew), the row's object is not the one the action would act on.
    const shown = (arg as { object?: { metadata?: { uid?: string } } } | undefined)?.object?.metadata?.uid;
    if (shown && target.object.metadata.uid && shown !== target.object.metadata.uid) {
      void vscode.window.showWarningMessage(`${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}: the row showed another object than the watch has now (context "${origin.context}"): nothing was done. Pick it again once the view has redrawn.`);
      return undefined;
    }
    return { pinned: { target, origin }, entryId: ref.entryId };
  };

  /** One action on one object (src/actions/action-flow.ts). */
  const run = async (id: ActionId, arg: unknown): Promise<void> => {
    const found = await pinnedOf(arg, `${actionById(id).title.replace(/…$/, '')}: pick an object`, actionById(id));
    if (found) await runActionFlow(id, found.pinned, depsFor(found.entryId));
  };

  /** Actions…: the actions the user may do on the object, then the chosen one. */
  const pickAction = async (arg: unknown): Promise<void> => {
    const found = await pinnedOf(arg, 'Actions: pick an object');
    if (found) await runActionsMenu(found.pinned, depsFor(found.entryId));
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
