import { dateTime } from '../base/time-format';
import type { KubeObject } from '../informer';
import type { ActionPlan } from './action-plan';
import { targetTitle } from './action-target';

/** Why a confirmed plan was not done. */
export type FlowProblem = 'moved' | 'unreachable' | 'refused';

/** What the action flow says, by case. */
export type FlowWords =
  | { kind: 'accepted'; plan: ActionPlan }
  | { kind: 'wrong-cluster'; plan: ActionPlan; refused: string }
  | { kind: 'moved'; plan: ActionPlan; object: KubeObject }
  | { kind: 'deleted' | 'recreated'; plan: ActionPlan; object?: KubeObject }
  | { kind: Exclude<FlowProblem, 'moved'>; plan: ActionPlan; words: string };

/**
 * The action flow's sentences (action-flow.ts): each says what happened to the plan, that
 * nothing was sent when nothing was, and what the user can do. Never a stack trace.
 */
export function actionFlowWords(w: FlowWords): string {
  const title = targetTitle(w.plan.target);
  switch (w.kind) {
    case 'accepted':
      return `${w.plan.verb} ${title}: accepted by the server; its row says when the watch shows it`;
    case 'wrong-cluster':
      return `${w.plan.button} ${title}: ${w.refused} The plan was not sent to the new context; run the action again on the object as the new context shows it.`;
    case 'moved':
      return `${title} changed on the server (now at resourceVersion ${w.object.metadata.resourceVersion ?? '?'}) after the plan was made: nothing was sent. Here is the plan again, made from the newest version.`;
    case 'deleted':
      return `Could not ${w.plan.verb} ${title}: it was deleted on the server after the plan was made. Nothing was sent.`;
    case 'recreated': {
      const created = w.object?.metadata.creationTimestamp ? Date.parse(w.object.metadata.creationTimestamp) : NaN;
      return `Could not ${w.plan.verb} ${title}: it is a new object (deleted and created again${Number.isNaN(created) ? '' : `, created at ${dateTime(created)}`}), not the one the plan was made for. Nothing was sent.`;
    }
    case 'unreachable':
      return `Could not ${w.plan.verb} ${title}. ${w.words} The plan is kept and nothing is queued: Try Again… shows it again to send it when you want.`;
    case 'refused':
      return `Could not ${w.plan.verb} ${title}. ${w.words}`;
  }
}
