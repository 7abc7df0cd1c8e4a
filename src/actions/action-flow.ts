import { AbortedError, ApiError, type Clock } from '../base';
import { accessQueryText } from '../cluster/access-review';
import type { KubeObject } from '../informer';
import { isOriginRefusal, withObject, type ObjectOrigin, type OriginResolution, type PinnedConnection } from '../manager/object-origin';
import { actionById, applicableActions, type ActionDefinition } from './action-catalog';
import { ActionNotPossible, type ActionId, type ActionPlan } from './action-plan';
import { runPlan, type WriteResult } from './action-runner';
import { objectPath, targetTitle, type ActionTarget } from './action-target';
import { jobNameProblem, manualJobName, planCreateJob, planSuspend } from './cronjob-actions';
import { planDelete, type DeleteOptions } from './delete-action';
import { planCordon } from './node-actions';
import { actionFlowWords, type FlowProblem } from './action-flow-words';
import { listRevisions, planUndo, type Revision } from './rollback';
import { currentReplicas, planRestart, planScale, replicasProblem } from './workload-actions';
import type { WriteJournal } from './write-journal';

/**
 * An action on one object, from the question to the write, VS Code-free: the access check, the
 * questions the action needs, the plan and its confirmation, then the write through the target's
 * origin (the cluster the object was read from, decided once where it was read: W01). The dialogs
 * are a port (`ActionDialogPort`) that the VS Code adapter fills.
 * Invariants:
 * - nothing is sent to a cluster other than the origin's: when the origin no longer resolves
 *   (the current context moved to another cluster) the write is refused in words, before and
 *   after the confirmation;
 * - a write refused because the object moved (409, a JSON-patch `test` that failed, a uid
 *   precondition) is planned again from the newest version of that object and confirmed again,
 *   never sent blind (W09); an object deleted or re-created meanwhile (another uid) is refused;
 * - an unreachable cluster or failed credentials keep the plan with the reason: nothing is queued,
 *   it is sent again only when the user asks again (W16).
 */

/** A choice in a pick list (src/ui/actions' Choice is one). */
export interface ActionChoice<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly value: T;
}

/** What the flow asks and says; the adapter turns each into a dialog. */
export interface ActionDialogPort {
  askText(title: string, prompt: string, value: string, problem: (text: string) => string | undefined): Promise<string | undefined>;
  pickChoice<T>(choices: readonly ActionChoice<T>[], title: string, placeHolder: string): Promise<T | undefined>;
  /** The plan's confirmation (its words, kubectl command, the button): confirmed, copied or cancelled. */
  confirmPlan(plan: ActionPlan): Promise<'confirmed' | 'copied' | 'cancelled'>;
  info(message: string): void;
  warning(message: string): void;
  /** An error; resolves with the button picked, if any. */
  error(message: string, ...buttons: string[]): Promise<string | undefined>;
  status(message: string): void;
  copy(text: string, what: string): Promise<void>;
}

/** The pick lists of Rollout Undo and Delete (src/ui/actions builds them). */
export interface ActionChoiceLists {
  revisions(revisions: readonly Revision[], now: number): ActionChoice<Revision>[];
  deleteOptions(target: ActionTarget): ActionChoice<DeleteOptions>[];
  actions(actions: readonly ActionDefinition[]): ActionChoice<ActionDefinition>[];
}

/** The object an action is on, as it was read, and where it was read. */
export interface PinnedTarget {
  readonly target: ActionTarget;
  readonly origin: ObjectOrigin;
}

export interface ActionFlowDeps {
  readonly dialogs: ActionDialogPort;
  readonly choices: ActionChoiceLists;
  readonly journal: WriteJournal;
  readonly clock: Clock;
  /** The origin's connection now, or why there is none (WatchManager.resolveOrigin). */
  connect(origin: ObjectOrigin): OriginResolution;
  /** The newest version of the object the watch shows on the origin's cluster, if it shows one. */
  watched(pinned: PinnedTarget): KubeObject | undefined;
  /** Drain has a flow of its own (progress, cancel); it runs on the pinned connection. */
  drain(target: ActionTarget, connection: PinnedConnection, mode: 'do' | 'copy'): Promise<void>;
  /** Default Math.random (a manual Job's name suffix). */
  readonly random?: () => number;
}

/** How many times a plan is made again after the object moved before the flow gives up. */
const MAX_REPLANS = 3;

/** "Scale" without the dots of "Scale…". */
const bare = (action: ActionDefinition) => action.title.replace(/…$/, '');

/** The words of the first thing the user may not do for `action` on `target`, or undefined (access reviews of the origin's user). */
export async function accessRefusal(action: ActionDefinition, target: ActionTarget, connection: PinnedConnection): Promise<string | undefined> {
  if (!connection.access) return undefined;
  for (const query of action.needs(target)) {
    const answer = await connection.access.can(query);
    if (!answer.allowed) {
      const user = connection.user;
      return `Not allowed: ${user ? `user "${user}"` : 'you'} may not ${accessQueryText(query)}${target.context ? ` (context ${target.context})` : ''}. The cluster's access rules (RBAC) do not allow it, so ${bare(action)} is not offered.`;
    }
  }
  return undefined;
}

/** The write actions the user may do on the object (for Actions… and Copy kubectl Command…). */
export async function offeredActions(pinned: PinnedTarget, deps: Pick<ActionFlowDeps, 'connect'>, writesOnly = false): Promise<ActionDefinition[]> {
  const connection = deps.connect(pinned.origin);
  const out: ActionDefinition[] = [];
  for (const action of applicableActions(pinned.target)) {
    if (writesOnly && !action.writes) continue;
    if (!action.writes || isOriginRefusal(connection) || (await accessRefusal(action, pinned.target, connection)) === undefined) out.push(action);
  }
  return out;
}

/** Actions…: the actions offered on the object, then the chosen one. */
export async function runActionsMenu(pinned: PinnedTarget, deps: ActionFlowDeps): Promise<void> {
  const offered = await offeredActions(pinned, deps);
  const chosen = await deps.dialogs.pickChoice(deps.choices.actions(offered), `Actions on ${targetTitle(pinned.target)}`, 'Action');
  if (chosen) await runActionFlow(chosen.id, pinned, deps);
}

/** One action on one object (see the file comment); `copy` only copies its kubectl command (nothing is sent). */
export async function runActionFlow(id: ActionId, pinned: PinnedTarget, deps: ActionFlowDeps, mode: 'do' | 'copy' = 'do'): Promise<void> {
  const { dialogs } = deps;
  const action = actionById(id);
  const target = pinned.target;
  if (id === 'copyName') return dialogs.copy(target.name, 'the name');
  if (id === 'copyKubectl') {
    const writes = await offeredActions(pinned, deps, true);
    const chosen = await dialogs.pickChoice(deps.choices.actions(writes), `Copy the kubectl command of an action on ${targetTitle(target)}`, 'Action');
    return chosen ? runActionFlow(chosen.id, pinned, deps, 'copy') : undefined;
  }
  if (!action.appliesTo(target)) return dialogs.info(`${bare(action)} does not apply to ${targetTitle(target)} now.`);
  try {
    const connection = deps.connect(pinned.origin);
    if (isOriginRefusal(connection)) {
      if (mode === 'copy') return await copyWithoutConnection(id, pinned, deps);
      return dialogs.warning(`${bare(action)} ${targetTitle(target)}: ${connection.refused}`);
    }
    if (mode === 'do') {
      const refused = await accessRefusal(action, target, connection);
      if (refused) return dialogs.warning(refused);
    }
    if (id === 'drain') return await deps.drain(target, connection, mode);
    const planner = await askAndPlan(id, target, connection, deps);
    if (!planner) return;
    if (mode === 'copy') return await dialogs.copy(planner(target).kubectl, 'the kubectl command');
    await confirmAndRun(planner, pinned, deps);
  } catch (err) {
    if (err instanceof ActionNotPossible) dialogs.info(`${targetTitle(target)}: ${err.message}`);
    else void dialogs.error(`${bare(action)} ${targetTitle(target)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Copying a command needs no connection, except to list an undo's revisions. */
async function copyWithoutConnection(id: ActionId, pinned: PinnedTarget, deps: ActionFlowDeps): Promise<void> {
  if (id === 'undo') return deps.dialogs.warning(`${targetTitle(pinned.target)}: ${(deps.connect(pinned.origin) as { refused: string }).refused}`);
  const planner = await askAndPlan(id, pinned.target, undefined, deps);
  if (planner) await deps.dialogs.copy(planner(pinned.target).kubectl, 'the kubectl command');
}

/** A plan for any version of the target, with the user's answers (replicas, revision, options) kept. */
type Planner = (target: ActionTarget) => ActionPlan;

/** Asks what the action needs; the planner, or undefined when cancelled. */
async function askAndPlan(id: ActionId, target: ActionTarget, connection: PinnedConnection | undefined, deps: ActionFlowDeps): Promise<Planner | undefined> {
  const { dialogs, clock } = deps;
  const title = targetTitle(target);
  switch (id) {
    case 'scale': {
      const text = await dialogs.askText(`Scale ${title}`, `Replicas (now ${currentReplicas(target)})`, String(currentReplicas(target)), replicasProblem);
      return text === undefined ? undefined : (t) => planScale(t, Number(text.trim()));
    }
    case 'restart': {
      const at = clock.now();
      return (t) => planRestart(t, at);
    }
    case 'undo': {
      if (!connection) return undefined;
      const revisions = await listRevisions(connection.transport, target, new AbortController().signal);
      const choices = deps.choices.revisions(revisions, clock.now());
      if (choices.length === 0) throw new ActionNotPossible(`no rollout history found for deployment "${target.name}"`);
      const to = await dialogs.pickChoice(choices, `Rollout Undo ${title}`, 'The revision to roll back to');
      return to && ((t) => planUndo(t, to));
    }
    case 'delete': {
      const choices = deps.choices.deleteOptions(target);
      if (choices.length === 0) return (t) => planDelete(t);
      const options = await dialogs.pickChoice(choices, `Delete ${title}`, target.type.resource === 'pods' ? 'Grace period' : 'What happens to what it owns');
      return options && ((t) => planDelete(t, options));
    }
    case 'cordon':
    case 'uncordon':
      return (t) => planCordon(t, id === 'cordon');
    case 'suspend':
    case 'resume':
      return (t) => planSuspend(t, id === 'suspend');
    case 'createJob': {
      const chosen = await dialogs.askText(`Create Job from ${title}`, 'Name of the Job', manualJobName(target.name, deps.random ?? Math.random), jobNameProblem);
      return chosen === undefined ? undefined : (t) => planCreateJob(t, chosen);
    }
    default:
      return undefined;
  }
}

/** Confirms and sends the plan; planned and confirmed again while the object moves (W09). */
async function confirmAndRun(planner: Planner, pinned: PinnedTarget, deps: ActionFlowDeps): Promise<void> {
  const { dialogs } = deps;
  let current = pinned;
  for (let replans = 0; ; ) {
    const plan = planner(current.target);
    if ((await deps.dialogs.confirmPlan(plan)) !== 'confirmed') return;
    // The origin is resolved again at the send: a context switched while the dialog was open is caught here (W01).
    const connection = deps.connect(current.origin);
    if (isOriginRefusal(connection)) {
      void dialogs.error(actionFlowWords({ kind: 'wrong-cluster', plan, refused: connection.refused }));
      return;
    }
    const result = await runPlan(plan, { transport: connection.transport, journal: deps.journal, access: connection.access, user: connection.user }, new AbortController().signal);
    if (result.ok) return dialogs.status(actionFlowWords({ kind: 'accepted', plan }));
    const problem = problemOf(result);
    if (problem === 'moved' && replans < MAX_REPLANS) {
      replans++;
      const newest = await newestVersion(current, connection, plan, deps);
      if ('gone' in newest) {
        void dialogs.error(actionFlowWords({ kind: newest.gone, plan, object: newest.object }));
        return;
      }
      current = { target: { ...current.target, object: newest.object }, origin: withObject(current.origin, newest.object) };
      dialogs.info(actionFlowWords({ kind: 'moved', plan, object: newest.object }));
      continue;
    }
    const again = await dialogs.error(actionFlowWords({ kind: problem === 'moved' ? 'refused' : problem, plan, words: result.words }), ...(problem === 'unreachable' ? [TRY_AGAIN] : []));
    // Nothing is queued: a retry is the user's, confirmed again with the plan as it stands (W16).
    if (again !== TRY_AGAIN) return;
  }
}

/** The button that asks to send a plan again after the cluster could not be reached. */
export const TRY_AGAIN = 'Try Again…';

/** What kind of refusal a failed write is. */
function problemOf(result: WriteResult): FlowProblem {
  // The runner read the object again after a precondition refused the write and saw it moved.
  if (result.moved) return 'moved';
  const err = result.error;
  if (err instanceof ApiError) {
    if (err.code === 409 && err.reason !== 'AlreadyExists') return 'moved';
    if (err.code === 422 && /\btest(ing value .* failed| failed| operation)/i.test(err.message)) return 'moved';
    if (err.code === 401 || err.code >= 500) return 'unreachable';
    return 'refused';
  }
  if (err instanceof AbortedError) return 'refused';
  return 'unreachable';
}

/**
 * The newest version of the target's object on its origin's cluster: the watch's when it is
 * newer than the one planned on, else read from the server; `gone` when deleted, or re-created
 * under the same name (another uid).
 */
async function newestVersion(pinned: PinnedTarget, connection: PinnedConnection, plan: ActionPlan, deps: Pick<ActionFlowDeps, 'watched'>): Promise<{ object: KubeObject } | { gone: 'deleted' | 'recreated'; object?: KubeObject }> {
  const planned = plan.target.object.metadata;
  let object = deps.watched(pinned);
  // The watch may lag the write's refusal: then the server says what is there now.
  if (!object || object.metadata.resourceVersion === planned.resourceVersion) {
    try {
      object = await connection.transport.getJson<KubeObject>(objectPath(pinned.target), {}, new AbortController().signal);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return { gone: 'deleted' };
      throw err;
    }
  }
  const uid = pinned.origin.uid || planned.uid;
  if (uid && object.metadata.uid && object.metadata.uid !== uid) return { gone: 'recreated', object };
  return { object };
}
