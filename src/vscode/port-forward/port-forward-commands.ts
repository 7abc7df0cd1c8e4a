import * as vscode from 'vscode';
import type { Clock } from '../../base';
import type { KubeObject } from '../../informer';
import { type AdHocWatch, type AdHocWatchRequest, type WatchEntry, OriginTransport, type ObjectOrigin, type OriginResolution } from '../../manager';
import { isForwardKind, PortForward, PortForwardSet, restoreForwards, restoreMessages, type ForwardKind, type ForwardResources, type ForwardSpec } from '../../port-forward';
import { browserUrl, localAddressText } from '../../ui/port-forward/forward-rows';
import { parseLocalPort, portChoicesOf } from '../../ui/port-forward/port-choices';
import { readForwardBindAddress } from '../settings';
import { PORT_FORWARDS_VIEW_ID, PortForwardView, type ForwardNode } from './port-forward-view';

export const PORT_FORWARD_COMMAND = 'kubeWatch.portForward';
export const STOP_PORT_FORWARD_COMMAND = 'kubeWatch.stopPortForward';
export const OPEN_PORT_FORWARD_COMMAND = 'kubeWatch.openPortForwardInBrowser';
const SAVED_KEY = 'kubeWatch.portForwards';

/** What the commands read of the manager (a WatchManager is one). */
export interface PortForwardSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  originOf(id: string): ObjectOrigin | undefined;
  resolveOrigin(origin: ObjectOrigin): OriginResolution;
  contextSpecOf(id: string): string | undefined;
  watchAdHoc(request: AdHocWatchRequest): AdHocWatch;
  onDidChangeEntries(listener: () => void): { dispose(): void };
}

/** The forwards of the window and what they hold (the extension's test API). */
export interface PortForwardsRegistration extends vscode.Disposable {
  readonly forwards: PortForwardSet;
  /** Listeners, streams, sockets, timers and watches of every forward, plus the view's redraw timer. */
  resources(): ForwardResources;
  /** Starts a forward without a picker (tests, restore): resolves with its id, rejects with the reason. */
  start(entryId: string, spec: ForwardSpec): Promise<string>;
  /** Deactivation: saves what runs (for the next start), then stops every forward; resolves once nothing is left. */
  shutdown(): Promise<void>;
}

/** An object as a command names it: the entry that watches it, its namespace and name. */
interface ObjectRef {
  readonly entryId: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * Port-forwards in VS Code: *Port Forward…* on a Pod, Service, Deployment, StatefulSet or
 * ReplicaSet row (or from the palette: a picker over the watched ones), then a port picker and
 * the local port; the Port Forwards view with *Stop* and *Open in Browser*; each forward's log
 * lines in the watch log; forwards saved for the next start, restored there only when
 * `kubeWatch.portForward.restore` is on, and then with a notification naming them.
 */
export function registerPortForwards(manager: PortForwardSource, clock: Clock, state: vscode.Memento, log: (line: string) => void): PortForwardsRegistration {
  const forwards = new PortForwardSet();
  const view = new PortForwardView(forwards, clock);
  const treeView = vscode.window.createTreeView(PORT_FORWARDS_VIEW_ID, { treeDataProvider: view });
  const settings = () => vscode.workspace.getConfiguration('kubeWatch.portForward');

  const create = (entryId: string, spec: ForwardSpec): { forward: PortForward; context: string; contextName: string } | string => {
    const context = manager.contextSpecOf(entryId);
    if (context === undefined) return 'its watch is gone';
    const forward = new PortForward(spec, {
      transport: new OriginTransport(manager.originOf(entryId), (o) => manager.resolveOrigin(o), `${spec.namespace}/${spec.name}`),
      clock,
      watch: (request) => manager.watchAdHoc({ spec: context, ...request }),
      waitForPodMs: Math.max(1, settings().get<number>('waitForPodSeconds', 30)) * 1000,
    });
    return { forward, context, contextName: manager.entry(entryId)?.context ?? '' };
  };

  const start = async (entryId: string, spec: ForwardSpec): Promise<string> => {
    const made = create(entryId, spec);
    if (typeof made === 'string') throw new Error(made);
    const entry = await forwards.start(made.context, made.contextName, made.forward);
    made.forward.onEvent((line) => log(`port-forward ${made.forward.label}: ${line}`));
    void save();
    return entry.id;
  };

  const save = async () => {
    if (!shutDown) await state.update(SAVED_KEY, forwards.saved());
  };

  const pickObject = async (): Promise<ObjectRef | undefined> => {
    const items: Array<vscode.QuickPickItem & { ref: ObjectRef }> = [];
    for (const entry of manager.entries()) {
      if (!isForwardKind(entry.type?.kind) || !entry.informer) continue;
      for (const obj of entry.informer.list()) {
        const namespace = obj.metadata.namespace ?? '';
        items.push({ label: obj.metadata.name ?? '', description: [namespace, entry.type.kind].join(' · '), detail: entry.context || undefined, ref: { entryId: entry.id, namespace, name: obj.metadata.name ?? '' } });
      }
    }
    if (items.length === 0) {
      void vscode.window.showInformationMessage('No pod, service or workload is watched: add "pods" or "services" to the watched resources first (Kube Watch: Choose Resources…).');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, { title: 'Port Forward: pick a pod, a service or a workload', matchOnDescription: true });
    return picked?.ref;
  };

  const pickPort = async (kind: ForwardKind, obj: KubeObject): Promise<number | undefined> => {
    const choices = portChoicesOf(kind, obj);
    const other = { label: 'Another port…', port: -1 };
    const picked = choices.length === 1 ? choices[0] : await vscode.window.showQuickPick([...choices, other], { title: `Port Forward: ${obj.metadata.name ?? ''}`, placeHolder: kind === 'Service' ? 'Service port' : 'Container port' });
    if (!picked) return undefined;
    if (picked.port !== -1) return picked.port;
    const typed = await vscode.window.showInputBox({ title: `Port Forward: ${obj.metadata.name ?? ''}`, prompt: 'The remote port', validateInput: (t) => (/^\d+$/.test(t.trim()) && Number(t) >= 1 && Number(t) <= 65535 ? undefined : 'a port from 1 to 65535') });
    return typed ? Number(typed) : undefined;
  };

  const portForward = async (arg?: unknown) => {
    const ref = refOf(arg) ?? (await pickObject());
    if (!ref) return;
    const entry = manager.entry(ref.entryId);
    const kind = entry?.type?.kind;
    const obj = entry?.informer?.get(ref.namespace, ref.name);
    if (!isForwardKind(kind)) return void vscode.window.showWarningMessage(`Port Forward: a ${kind ?? 'row of this kind'} has no pods to forward to (pick a Pod, Service, Deployment, StatefulSet or ReplicaSet).`);
    if (!obj) return void vscode.window.showWarningMessage(`${kind} ${ref.namespace}/${ref.name} is not in the watched cache any more.`);
    const port = await pickPort(kind, obj);
    if (port === undefined) return;
    const local = await vscode.window.showInputBox({ title: `Port Forward: ${ref.name} ${port}`, prompt: 'Local port (empty: the same number when free, else a free one; 0: any free port)', value: String(port), validateInput: (t) => (typeof parseLocalPort(t) === 'string' ? (parseLocalPort(t) as string) : undefined) });
    if (local === undefined) return;
    const parsed = parseLocalPort(local) as { port?: number; exact: boolean };
    // The number offered (the remote port) is a wish, not a demand: taken, another is chosen and shown.
    const exact = parsed.exact && parsed.port !== port;
    const spec: ForwardSpec = { kind, namespace: ref.namespace, name: ref.name, port, localPort: parsed.port ?? port, exactLocalPort: exact, address: readForwardBindAddress() };
    const id = await vscode.window.withProgress({ location: { viewId: PORT_FORWARDS_VIEW_ID }, title: 'Starting the port-forward' }, () => start(ref.entryId, spec));
    const f = forwards.get(id)!.forward;
    const where = localAddressText(f.status);
    const note = f.chosenInstead ? ` (port ${spec.localPort} was in use, so ${f.status.localPort} was chosen)` : '';
    void vscode.window.showInformationMessage(`Forwarding ${where} to ${f.label}${note}.`, 'Open in Browser').then((choice) => {
      if (choice) void vscode.env.openExternal(vscode.Uri.parse(browserUrl(f.status)));
    });
    void treeView.reveal({ forwardId: id } as ForwardNode).then(undefined, () => undefined);
  };

  const stop = async (node?: ForwardNode) => {
    const id = node?.forwardId ?? (await pickForward('Stop which port-forward?'));
    if (!id) return;
    await forwards.stop(id);
    await save();
  };

  const openInBrowser = async (node?: ForwardNode) => {
    const id = node?.forwardId ?? (await pickForward('Open which port-forward in the browser?'));
    const f = id ? forwards.get(id)?.forward : undefined;
    if (f) await vscode.env.openExternal(vscode.Uri.parse(browserUrl(f.status)));
  };

  const pickForward = async (title: string): Promise<string | undefined> => {
    const list = forwards.list();
    if (list.length <= 1) return list[0]?.id;
    const picked = await vscode.window.showQuickPick(
      list.map((e) => ({ label: `${e.forward.label} → ${localAddressText(e.forward.status)}`, description: e.forward.status.phase, id: e.id })),
      { title },
    );
    return picked?.id;
  };

  /** Restores the forwards saved by the last window, if the setting asks for it, and says which. */
  const restore = async () => {
    const saved = state.get<unknown[]>(SAVED_KEY, []);
    if (!Array.isArray(saved) || saved.length === 0 || !settings().get<boolean>('restore', false)) return;
    const entryOf = (context: string) => manager.entries().find((e) => manager.contextSpecOf(e.id) === context && e.informer)?.id;
    const outcome = await restoreForwards(saved, entryOf, async (entryId, spec) => forwards.get(await start(entryId, spec))!.forward);
    const messages = restoreMessages(outcome);
    if (messages.info) void vscode.window.showInformationMessage(messages.info);
    if (messages.warning) void vscode.window.showWarningMessage(messages.warning);
    await save();
  };

  const report = (what: string) => (err: unknown) => void vscode.window.showErrorMessage(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  const disposables = [
    vscode.commands.registerCommand(PORT_FORWARD_COMMAND, (arg?: unknown) => portForward(arg).catch(report('Port Forward'))),
    vscode.commands.registerCommand(STOP_PORT_FORWARD_COMMAND, (node?: ForwardNode) => stop(node).catch(report('Stop Port Forward'))),
    vscode.commands.registerCommand(OPEN_PORT_FORWARD_COMMAND, (node?: ForwardNode) => openInBrowser(node).catch(report('Open in Browser'))),
    treeView,
    view,
  ];
  // Restored once the first watch is live (its context's connection works then).
  let restoring: { dispose(): void } | undefined = manager.onDidChangeEntries(() => {
    if (!restoring || !manager.entries().some((e) => e.informer?.state.synced)) return;
    restoring.dispose();
    restoring = undefined;
    void restore().catch(report('Restore Port Forwards'));
  });

  let shutDown = false;
  const shutdown = async () => {
    if (shutDown) return;
    shutDown = true;
    await state.update(SAVED_KEY, forwards.saved());
    await forwards.stopAll();
  };

  return {
    forwards,
    start,
    shutdown,
    resources: () => {
      const r = forwards.resources;
      return { ...r, timers: r.timers + view.timers };
    },
    dispose: () => {
      restoring?.dispose();
      for (const d of disposables) d.dispose();
      // Saved before they stop, so the next start can restore what ran when the window closed.
      void shutdown().finally(() => forwards.dispose());
    },
  };
}

function refOf(arg: unknown): ObjectRef | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { entryId, namespace, name } = arg as Partial<ObjectRef>;
  if (typeof entryId !== 'string' || typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  return { entryId, namespace, name };
}
