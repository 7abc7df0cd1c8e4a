import * as vscode from 'vscode';
import type { ActionPlan } from '../../actions';
import { confirmationOf, typedNameProblem, type Choice } from '../../ui/actions';

/** `kubeWatch.actions.confirmReversible`: ask before the reversible actions too (default true). */
export function readConfirmReversible(): boolean {
  return vscode.workspace.getConfiguration('kubeWatch.actions').get<boolean>('confirmReversible', true);
}

/** What the user chose in a confirmation. */
export type ConfirmAnswer = 'confirmed' | 'copied' | 'cancelled';

/**
 * Asks before a plan runs: a modal dialog with its words and its kubectl command, with the
 * button that does it and "Copy kubectl Command"; a namespace's name must be typed first. A
 * reversible action skips the dialog when the setting says not to ask.
 */
export async function confirmPlan(plan: ActionPlan): Promise<ConfirmAnswer> {
  const c = confirmationOf(plan, readConfirmReversible());
  if (c.skip) return 'confirmed';
  const answer = await vscode.window.showWarningMessage(c.message, { modal: true, detail: c.detail }, c.confirm, c.copy);
  if (answer === c.copy) {
    await copyText(plan.kubectl, 'the kubectl command');
    return 'copied';
  }
  if (answer !== c.confirm) return 'cancelled';
  if (c.typeToConfirm) {
    const expected = c.typeToConfirm;
    const typed = await vscode.window.showInputBox({
      title: c.message,
      prompt: `Type ${expected} to delete it and everything in it`,
      placeHolder: expected,
      ignoreFocusOut: true,
      validateInput: (text) => (text === '' ? undefined : typedNameProblem(expected, text)),
    });
    if (typed !== expected) return 'cancelled';
  }
  return 'confirmed';
}

/** Copies `text` and says so in the status bar (the text itself when it is a command). */
export async function copyText(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`$(check) Copied ${what}: ${text}`, 5000);
}

/** One choice of a quick pick, or undefined when cancelled. */
export async function pickChoice<T>(choices: readonly Choice<T>[], title: string, placeHolder: string): Promise<T | undefined> {
  if (choices.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({ label: c.label, description: c.description, detail: c.detail, choice: c })),
    { title, placeHolder, ignoreFocusOut: true },
  );
  return picked?.choice.value;
}

/** Several choices (checkboxes), or undefined when cancelled. */
export async function pickChoices<T>(choices: readonly Choice<T>[], title: string, placeHolder: string): Promise<T[] | undefined> {
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({ label: c.label, description: c.description, detail: c.detail, choice: c })),
    { title, placeHolder, canPickMany: true, ignoreFocusOut: true },
  );
  return picked?.map((p) => p.choice.value);
}

/** A line of text, validated as it is typed; undefined when cancelled. */
export async function askText(title: string, prompt: string, value: string, problem: (text: string) => string | undefined): Promise<string | undefined> {
  return vscode.window.showInputBox({ title, prompt, value, valueSelection: [0, value.length], ignoreFocusOut: true, validateInput: problem });
}
