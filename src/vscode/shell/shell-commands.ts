import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { KubeObject } from '../../informer';
import { type WatchEntry, OriginTransport, type ObjectOrigin, type OriginResolution } from '../../manager';
import { runTerminalName, shellTerminalName } from '../../ui/shell/session-text';
import { OpenTerminals } from './open-terminals';
import { ShellTerminal } from './shell-terminal';

export const OPEN_SHELL_COMMAND = 'kubeWatch.openShell';
export const RUN_COMMAND_COMMAND = 'kubeWatch.runCommand';

/** What the commands read of the manager (a WatchManager is one). */
export interface ShellSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  originOf(id: string): ObjectOrigin | undefined;
  resolveOrigin(origin: ObjectOrigin): OriginResolution;
  /** The kubeconfig user of an entry's context, for the words of a refusal. */
  userOf(id: string): string | undefined;
}

export interface ShellsRegistration extends vscode.Disposable {
  /** Exec sessions open now over every shell and command terminal. */
  openSessions(): number;
  openTerminals(): number;
}

interface PodRef {
  readonly entryId: string;
  readonly namespace: string;
  readonly name: string;
}

/** The containers a shell can run in: regular ones, then ephemeral ones (debug containers). */
function containersOf(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as { containers?: Array<{ name?: string }>; ephemeralContainers?: Array<{ name?: string }> };
  return [...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name ?? '').filter(Boolean);
}

/**
 * *Open Shell…* and *Run Command…* on a pod row (or from the palette: a picker over the watched
 * pods), a container picker when the pod has several, then a terminal over exec on the
 * context's connection. Closing a terminal ends its session; disposing closes them all.
 */
export function registerShells(manager: ShellSource, clock: Clock): ShellsRegistration {
  const open = new OpenTerminals();

  const pickPod = async (title: string): Promise<PodRef | undefined> => {
    const items: Array<vscode.QuickPickItem & { ref: PodRef }> = [];
    for (const entry of manager.entries()) {
      if (entry.type?.kind !== 'Pod' || !entry.informer) continue;
      for (const pod of entry.informer.list()) {
        const namespace = pod.metadata.namespace ?? '';
        items.push({ label: pod.metadata.name ?? '', description: [namespace, (pod.status as { phase?: string } | undefined)?.phase].filter(Boolean).join(' · '), ref: { entryId: entry.id, namespace, name: pod.metadata.name ?? '' } });
      }
    }
    if (items.length === 0) {
      void vscode.window.showInformationMessage('No pod is watched: add "pods" to the watched resources first (Kube Watch: Choose Resources…).');
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true }))?.ref;
  };

  const launch = async (arg: unknown, interactive: boolean) => {
    const title = interactive ? 'Open Shell' : 'Run Command';
    const ref = refOf(arg) ?? (await pickPod(`${title}: pick a pod`));
    if (!ref) return;
    const pod = manager.entry(ref.entryId)?.informer?.get(ref.namespace, ref.name);
    if (!pod) return void vscode.window.showWarningMessage(`Pod ${ref.namespace}/${ref.name} is not in the watched cache any more.`);
    const containers = containersOf(pod);
    const container = containers.length <= 1 ? containers[0] : await vscode.window.showQuickPick(containers, { title: `${title}: ${ref.name}`, placeHolder: 'Container' });
    if (containers.length > 1 && !container) return;
    let command: string[] | undefined;
    if (!interactive) {
      const typed = await vscode.window.showInputBox({ title: `${title}: ${ref.name}${container ? `/${container}` : ''}`, prompt: 'The command, run by sh -c (no TTY); its output and exit code show in a terminal', placeHolder: 'ls -la /' });
      if (!typed?.trim()) return;
      command = ['sh', '-c', typed];
    }
    const pty: ShellTerminal = new ShellTerminal(
      { namespace: ref.namespace, pod: ref.name, ...(container ? { container } : {}) },
      { transport: new OriginTransport(manager.originOf(ref.entryId), (o) => manager.resolveOrigin(o), `${ref.namespace}/${ref.name}`), clock, command, user: manager.userOf(ref.entryId), onClosed: () => open.ended(pty) },
    );
    const name = command ? runTerminalName(ref.name, command.slice(2)) : shellTerminalName(ref.name, container);
    open.show(pty, { name, iconPath: new vscode.ThemeIcon(interactive ? 'terminal' : 'play') });
  };

  const report = (what: string) => (err: unknown) => void vscode.window.showErrorMessage(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  const commands = [
    vscode.commands.registerCommand(OPEN_SHELL_COMMAND, (arg?: unknown) => launch(arg, true).catch(report('Open Shell'))),
    vscode.commands.registerCommand(RUN_COMMAND_COMMAND, (arg?: unknown) => launch(arg, false).catch(report('Run Command'))),
  ];
  return {
    openSessions: () => open.openSessions(),
    openTerminals: () => open.size,
    dispose: () => {
      for (const c of commands) c.dispose();
      open.dispose();
    },
  };
}

function refOf(arg: unknown): PodRef | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { entryId, namespace, name } = arg as Partial<PodRef>;
  if (typeof entryId !== 'string' || typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  return { entryId, namespace, name };
}
