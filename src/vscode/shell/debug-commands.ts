import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { KubeObject } from '../../informer';
import { OriginTransport, type AdHocWatch, type AdHocWatchRequest, type ObjectOrigin } from '../../manager';
import { DebugSession, imageProblem, targetableContainers } from '../../debug';
import type { ShellSource } from './shell-commands';
import { OpenTerminals } from './open-terminals';
import { ShellTerminal } from './shell-terminal';

export const DEBUG_POD_COMMAND = 'kubeWatch.debugPod';
/** Where the images used last are remembered (newest first). */
const RECENT_IMAGES_KEY = 'kubeWatch.debug.recentImages';
const MAX_RECENT = 8;

/** What Debug Pod reads of the manager besides what the shells read. */
export interface DebugSource extends ShellSource {
  contextSpecOf(id: string): string | undefined;
  /** The origin of the pod as the row showed it: its uid is the patch's precondition. */
  originOf(id: string, object?: KubeObject): ObjectOrigin | undefined;
  watchAdHoc(request: AdHocWatchRequest): AdHocWatch;
}

export interface DebugRegistration extends vscode.Disposable {
  openSessions(): number;
  openTerminals(): number;
}

/**
 * *Debug Pod…* on a pod row, as `kubectl debug -it POD --image=IMAGE --target=CONTAINER`: an
 * image (the images used last first, then the `kubeWatch.debug.image` setting, or one typed), a
 * target container (whose process namespace the debug container joins), then a terminal: the
 * container is added, the terminal says while it waits for it to start, then attaches. Enter
 * after a drop attaches again to the same container (it runs on: an ephemeral container cannot
 * be removed); closing the terminal ends the attach and the pod's watch.
 */
export function registerDebugPod(manager: DebugSource, clock: Clock, memento: vscode.Memento): DebugRegistration {
  const open = new OpenTerminals();

  const pickImage = async (pod: string): Promise<string | undefined> => {
    const configured = vscode.workspace.getConfiguration('kubeWatch').get<string>('debug.image', 'busybox').trim() || 'busybox';
    const recent = memento.get<string[]>(RECENT_IMAGES_KEY, []);
    const images = [...new Set([...recent, configured])];
    const other = 'Another image…';
    const picked = await vscode.window.showQuickPick(
      [...images.map((label) => ({ label, description: label === configured ? 'setting kubeWatch.debug.image' : 'used lately' })), { label: other, description: 'type an image reference' }],
      { title: `Debug Pod ${pod}: the debug container's image`, placeHolder: 'An image with the tools you need (busybox, nicolaka/netshoot, …)' },
    );
    if (!picked) return undefined;
    if (picked.label !== other) return picked.label;
    const typed = await vscode.window.showInputBox({ title: `Debug Pod ${pod}: the debug container's image`, prompt: 'An image reference, as kubectl debug --image takes it', placeHolder: 'busybox:1.36', validateInput: (v) => imageProblem(v) });
    return typed?.trim() || undefined;
  };

  const pickTarget = async (pod: KubeObject): Promise<{ target?: string } | undefined> => {
    const containers = targetableContainers(pod);
    if (containers.length === 1) return { target: containers[0] };
    const none = { label: '(none)', description: "the pod's own process namespace", target: undefined as string | undefined };
    const picked = await vscode.window.showQuickPick([...containers.map((c) => ({ label: c, description: 'share its processes', target: c as string | undefined })), none], {
      title: `Debug Pod ${pod.metadata.name ?? ''}: target container`,
      placeHolder: 'The container whose processes the debug container sees (kubectl debug --target)',
    });
    return picked ? { ...(picked.target ? { target: picked.target } : {}) } : undefined;
  };

  const launch = async (arg: unknown) => {
    const ref = refOf(arg);
    if (!ref) return void vscode.window.showInformationMessage('Debug Pod… works on a pod row of the Kube Watch tree.');
    const pod = manager.entry(ref.entryId)?.informer?.get(ref.namespace, ref.name);
    if (!pod) return void vscode.window.showWarningMessage(`Pod ${ref.namespace}/${ref.name} is not in the watched cache any more.`);
    const image = await pickImage(ref.name);
    if (!image) return;
    const target = await pickTarget(pod);
    if (!target) return;
    await memento.update(RECENT_IMAGES_KEY, [image, ...memento.get<string[]>(RECENT_IMAGES_KEY, []).filter((i) => i !== image)].slice(0, MAX_RECENT));
    const spec = manager.contextSpecOf(ref.entryId);
    const origin = manager.originOf(ref.entryId, pod);
    const transport = new OriginTransport(origin, (o) => manager.resolveOrigin(o), `${ref.namespace}/${ref.name}`);
    // The first session adds the container; later ones (Enter after a drop) attach to it again.
    let container: string | undefined;
    const pty: ShellTerminal = new ShellTerminal(
      { namespace: ref.namespace, pod: ref.name },
      {
        transport,
        clock,
        user: manager.userOf(ref.entryId),
        stream: 'debug',
        onClosed: () => open.ended(pty),
        session: (size) => {
          const session = new DebugSession({ transport, clock, pod, request: { image, ...target }, ...(container ? { container } : {}), ...(size ? { initialSize: size } : {}), watch: (request) => manager.watchAdHoc({ spec: spec ?? '', ...request }) });
          session.onProgress(() => (container ??= session.container));
          return session;
        },
      },
    );
    open.show(pty, { name: `debug ${ref.name}`, iconPath: new vscode.ThemeIcon('debug') });
  };

  const commands = [
    vscode.commands.registerCommand(DEBUG_POD_COMMAND, (arg?: unknown) => launch(arg).catch((err: unknown) => void vscode.window.showErrorMessage(`Debug Pod: ${err instanceof Error ? err.message : String(err)}`))),
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

function refOf(arg: unknown): { entryId: string; namespace: string; name: string } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { entryId, namespace, name } = arg as { entryId?: unknown; namespace?: unknown; name?: unknown };
  if (typeof entryId !== 'string' || typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  return { entryId, namespace, name };
}
