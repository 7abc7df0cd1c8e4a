import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { KubeObject } from '../../informer';
import { containerEndedForGood, containerRunOf, isWorkloadKind, podFinished, workloadRefOf, type WorkloadKind } from '../../logs';
import { type AdHocWatch, type AdHocWatchRequest, type WatchEntry, OriginTransport, type ObjectOrigin, type OriginResolution } from '../../manager';
import { logChoicesOf, PodLogScreen, previousRunHeading, terminalName, WorkloadLogScreen, workloadTerminalName, type LogChoice } from '../../ui/logs';
import { LogPseudoterminal } from './log-pseudoterminal';
import { LogTerminals } from './log-terminal-commands';

export const FOLLOW_LOGS_COMMAND = 'kubeWatch.followLogs';

/** What the command reads of the manager (a WatchManager is one). */
export interface PodLogSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  originOf(id: string): ObjectOrigin | undefined;
  resolveOrigin(origin: ObjectOrigin): OriginResolution;
  /** The context spec of an entry, to watch a workload's pods on its context. */
  contextSpecOf(id: string): string | undefined;
  watchAdHoc(request: AdHocWatchRequest): AdHocWatch;
}

/** The registered command and the terminals it opened; disposing closes them all. */
export interface PodLogsRegistration extends vscode.Disposable {
  /** Log streams open now, over every log terminal (0 once they are all closed). */
  openStreams(): number;
  /** Timers (backoff waits, silence checks) of every log follower; 0 once they are all closed. */
  openTimers(): number;
  /** Log terminals open now, or closed and still stopping their followers. */
  openTerminals(): number;
}

/** A pod as a command names it: the entry that watches it, and its namespace and name. */
interface PodRef {
  readonly entryId: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * `kubeWatch.followLogs`: from a pod row of the tree (argument: the object node) or the command
 * palette (a picker over the watched pods and workloads), then a container picker when there is a choice,
 * opens a terminal that follows the log through disconnects on the context's own transport.
 * From a workload row (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job) it follows every
 * container of the workload's pods as they come and go (a WorkloadLogScreen); search, filter, timestamps, range and Save Log As act on either (LogTerminals).
 */
export function registerPodLogs(manager: PodLogSource, clock: Clock): PodLogsRegistration {
  const terminals = new LogTerminals();
  const hooks = (pty: () => LogPseudoterminal) => ({
    onRequest: (request: Parameters<LogTerminals['request']>[0], p: LogPseudoterminal) =>
      void terminals.request(request, p).catch((err: unknown) => void vscode.window.showErrorMessage(`${p.name}: ${err instanceof Error ? err.message : String(err)}`)),
    onClosed: () => terminals.remove(pty()),
  });
  const scrollback = () => vscode.workspace.getConfiguration('terminal.integrated').get<number>('scrollback', 1000);

  const podOf = (ref: PodRef): KubeObject | undefined => manager.entry(ref.entryId)?.informer?.get(ref.namespace, ref.name);

  const pickPod = async (): Promise<PodRef | undefined> => {
    const items: Array<vscode.QuickPickItem & { ref: PodRef }> = [];
    for (const entry of manager.entries()) {
      const kind = entry.type?.kind;
      if ((kind !== 'Pod' && !isWorkloadKind(kind)) || !entry.informer) continue;
      for (const obj of entry.informer.list()) {
        const namespace = obj.metadata.namespace ?? '';
        const name = obj.metadata.name ?? '';
        // A pod says its phase; a workload its kind (all of its pods' containers are followed).
        const what = kind === 'Pod' ? (obj.status as { phase?: string } | undefined)?.phase : `${kind}: all of its pods`;
        items.push({ label: name, description: [namespace, what].filter(Boolean).join(' · '), detail: entry.context || undefined, ref: { entryId: entry.id, namespace, name } });
      }
    }
    if (items.length === 0) {
      void vscode.window.showInformationMessage('No pod or workload is watched: add "pods" or "deployments" to the watched resources first (Kube Watch: Choose Resources…).');
      return undefined;
    }
    items.sort((a, b) => (a.description ?? '').localeCompare(b.description ?? '') || a.label.localeCompare(b.label));
    const picked = await vscode.window.showQuickPick(items, { title: 'Follow Logs: pick a pod or a workload', placeHolder: 'Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet or Job name', matchOnDescription: true });
    return picked?.ref;
  };

  const pickChoice = async (pod: KubeObject): Promise<LogChoice | undefined> => {
    const choices = logChoicesOf(pod);
    if (choices.length <= 1) return choices[0];
    const picked = await vscode.window.showQuickPick(
      choices.map((choice) => ({ label: choice.label, description: choice.description, choice })),
      { title: `Follow Logs: ${pod.metadata.name ?? ''}`, placeHolder: 'Container (a restarted one offers the log of its last run first)' },
    );
    return picked?.choice;
  };

  const followWorkload = (ref: PodRef, kind: WorkloadKind) => {
    const obj = manager.entry(ref.entryId)?.informer?.get(ref.namespace, ref.name);
    if (!obj) {
      void vscode.window.showWarningMessage(`${kind} ${ref.namespace}/${ref.name} is not in the watched cache any more.`);
      return;
    }
    const workload = workloadRefOf(kind, obj);
    const spec = manager.contextSpecOf(ref.entryId);
    if (typeof workload === 'string' || spec === undefined) {
      void vscode.window.showWarningMessage(typeof workload === 'string' ? workload : `${kind} ${ref.namespace}/${ref.name}: its watch is gone.`);
      return;
    }
    const settings = vscode.workspace.getConfiguration('kubeWatch.logs');
    const maxStreams = Math.max(1, Math.floor(settings.get<number>('maxStreams', 20)));
    const keptLines = scrollback();
    const name = workloadTerminalName(kind, ref.namespace, ref.name);
    const pty: LogPseudoterminal = new LogPseudoterminal(
      name,
      (write) =>
        new WorkloadLogScreen(workload, {
          clock,
          write,
          screenLines: keptLines,
          keptLines,
          set: {
            transport: new OriginTransport(manager.originOf(ref.entryId), (o) => manager.resolveOrigin(o), `${ref.namespace}/${ref.name}`),
            maxStreams,
            watch: (request) => manager.watchAdHoc({ spec, ...request }),
          },
        }),
      hooks(() => pty),
    );
    terminals.add(pty, vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('output') }));
  };

  const follow = async (arg?: unknown) => {
    const ref = podRefOf(arg) ?? (await pickPod());
    if (!ref) return;
    const kind = manager.entry(ref.entryId)?.type?.kind;
    if (isWorkloadKind(kind)) return followWorkload(ref, kind);
    const pod = podOf(ref);
    if (!pod) {
      void vscode.window.showWarningMessage(`Pod ${ref.namespace}/${ref.name} is not in the watched cache any more.`);
      return;
    }
    const choice = await pickChoice(pod);
    if (!choice) {
      if (logChoicesOf(pod).length === 0) void vscode.window.showWarningMessage(`Pod ${ref.namespace}/${ref.name} has no container.`);
      return;
    }
    const transport = new OriginTransport(manager.originOf(ref.entryId), (o) => manager.resolveOrigin(o), `${ref.namespace}/${ref.name}`);
    const keptLines = scrollback();
    const request = {
      namespace: ref.namespace,
      pod: ref.name,
      containers: choice.containers,
      previous: choice.previous,
      heading: choice.previous ? previousRunHeading(pod, choice.containers[0]) : undefined,
    };
    const name = terminalName(ref.namespace, ref.name, choice.containers, choice.previous);
    const pty: LogPseudoterminal = new LogPseudoterminal(
      name,
      (write) =>
        new PodLogScreen(request, {
          transport,
          clock,
          write,
          screenLines: keptLines,
          keptLines,
          currentRun: (container) => {
            const current = podOf(ref);
            return current && containerRunOf(current, container);
          },
          endedForGood: (container) => {
            const current = podOf(ref);
            return current !== undefined && (podFinished(current) || containerEndedForGood(current, container));
          },
        }),
      hooks(() => pty),
    );
    terminals.add(pty, vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('output') }));
  };

  const command = vscode.commands.registerCommand(FOLLOW_LOGS_COMMAND, (arg?: unknown) =>
    follow(arg).catch((err: unknown) => void vscode.window.showErrorMessage(`Follow Logs: ${err instanceof Error ? err.message : String(err)}`)),
  );
  return {
    openStreams: () => terminals.ptys().reduce((n, p) => n + p.activeStreams, 0),
    openTimers: () => terminals.ptys().reduce((n, p) => n + p.activeTimers, 0),
    openTerminals: () => terminals.ptys().length,
    dispose() {
      command.dispose();
      terminals.dispose();
    },
  };
}

/** A command argument as a pod: an object tree node (or `{ entryId, namespace, name }`). */
function podRefOf(arg: unknown): PodRef | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { entryId, namespace, name } = arg as Partial<PodRef>;
  if (typeof entryId !== 'string' || typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  return { entryId, namespace, name };
}
