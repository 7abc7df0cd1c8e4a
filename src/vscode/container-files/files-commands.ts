import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Cancelled, type ContainerEntry, type ContainerFiles } from '../../container-files';
import type { KubeObject } from '../../informer';
import type { WatchEntry } from '../../manager';
import { containerTitle, downloadedWords, entryRow, type ContainerFileRef } from '../../ui/container-files/files-uri';
import { bytesText } from '../../ui/port-forward/forward-rows';
import { FILES_SCHEME } from '../../ui/container-files/files-uri';
import { ContainerFilesProvider, ContainerFilesRegistry, fileUri, refOfUri, type FilesSource } from './files-provider';

export const BROWSE_FILES_COMMAND = 'kubeWatch.browseContainerFiles';
export const DOWNLOAD_FILES_COMMAND = 'kubeWatch.downloadContainerFiles';
export const UPLOAD_FILES_COMMAND = 'kubeWatch.uploadContainerFiles';

/** What the commands read of the manager (a WatchManager is one). */
export interface BrowseSource extends FilesSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
}

type Row = vscode.QuickPickItem & { act: () => Promise<void> | void; entry?: ContainerEntry };

/**
 * *Browse Container Files…* on a pod row (offered where `pods/exec` is allowed, like Open Shell):
 * a container picker when the pod has several, then a folder picker over the container's files
 * starting at its working directory (folders open in place, files open in a read-only editor
 * of the `kubewatch-files:` scheme and the picker stays, Download…/Upload… for the folder and
 * for each row). A quick pick, not a workspace folder: adding the first workspace folder restarts
 * every extension (and with it the watches), and most visits are to read one file; a folder can
 * still be added to a workspace that has folders already ("Add to Workspace").
 */
export function registerContainerFiles(manager: BrowseSource): vscode.Disposable {
  const registry = new ContainerFilesRegistry(manager);
  const provider = new ContainerFilesProvider(registry);
  const pickers = new Set<vscode.QuickPick<Row>>();

  const browse = async (arg: unknown) => {
    const ref = await pickContainer(manager, arg);
    if (!ref) return;
    const files = registry.of(ref);
    const { signal, done } = registry.signal();
    let start: string;
    try {
      start = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Looking into ${containerTitle(ref)}` }, () => files.workingDirectory(signal));
    } finally {
      done();
    }
    await browseFolder(files, { ...ref, path: start });
  };

  const browseFolder = async (files: ContainerFiles, at: ContainerFileRef): Promise<void> => {
    const qp = vscode.window.createQuickPick<Row>();
    pickers.add(qp);
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = true;
    const { signal, done } = registry.signal();
    // The folder shown: a row's Download button names an entry of it.
    let current = at.path;
    const show = async (dir: string) => {
      current = dir;
      qp.title = `${containerTitle(at)}: ${dir}`;
      qp.busy = true;
      qp.items = [];
      try {
        const [entries, words] = await Promise.all([files.list(dir, signal), files.describe(signal)]);
        qp.placeholder = words;
        qp.items = rowsOf(dir, entries);
      } catch (err) {
        qp.items = [{ label: `$(error) ${messageOf(err)}`, act: () => show(dir) }, ...(dir !== '/' ? [{ label: '$(arrow-up) ..', act: () => show(path.posix.dirname(dir)) }] : [])];
      } finally {
        qp.busy = false;
      }
    };
    const here = (dir: string, p = dir) => fileUri({ ...at, path: p });
    const rowsOf = (dir: string, entries: ContainerEntry[]): Row[] => {
      const folder = here(dir);
      const rows: Row[] = [];
      if (dir !== '/') rows.push({ label: '$(arrow-up) ..', description: path.posix.dirname(dir), act: () => show(path.posix.dirname(dir)) });
      rows.push({ label: '$(go-to-file) Go to Path…', act: () => goTo(dir) });
      // A copy's failure is said as the copy's (`Upload: …`), not as the picker's.
      rows.push({ label: '$(cloud-download) Download This Folder…', act: () => download(folder).catch(report('Download')) });
      rows.push({ label: '$(cloud-upload) Upload Into This Folder…', act: () => upload(folder).catch(report('Upload')) });
      if ((vscode.workspace.workspaceFolders?.length ?? 0) > 0) rows.push({ label: '$(root-folder) Add This Folder to the Workspace', act: () => void vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: folder, name: `${at.pod}:${dir}` }) });
      rows.push({ label: '', kind: vscode.QuickPickItemKind.Separator, act: () => undefined });
      for (const entry of entries) {
        const row = entryRow(entry);
        const full = path.posix.join(dir, entry.name);
        rows.push({
          label: `$(${row.icon}) ${row.label}`,
          description: row.description,
          entry,
          buttons: [{ iconPath: new vscode.ThemeIcon('cloud-download'), tooltip: 'Download…' }],
          act: () => (entry.type === 'directory' ? show(full) : open(full, entry)),
        });
      }
      return rows;
    };
    const open = async (full: string, entry: ContainerEntry) => {
      if (entry.type === 'symlink') {
        const target = await files.stat(`${full}/`, signal).catch(() => undefined);
        if (target?.type === 'directory') return show(full);
      }
      await vscode.commands.executeCommand('vscode.open', here(full), { preview: true, preserveFocus: true });
    };
    const goTo = async (dir: string) => {
      const typed = await vscode.window.showInputBox({ title: `Go to a path in ${containerTitle(at)}`, value: dir, prompt: 'An absolute path inside the container', validateInput: (v) => (v.startsWith('/') ? undefined : 'Start with / (a path inside the container)') });
      qp.show();
      if (typed) await show(path.posix.normalize(typed));
    };
    qp.onDidAccept(() => {
      const row = qp.selectedItems[0];
      if (row) void Promise.resolve(row.act()).catch(report('Browse Container Files'));
    });
    qp.onDidTriggerItemButton((e) => void download(here(current, path.posix.join(current, e.item.entry?.name ?? ''))).catch(report('Download')));
    qp.onDidHide(() => {
      done();
      pickers.delete(qp);
      qp.dispose();
    });
    qp.show();
    await show(at.path);
  };

  const download = async (uri?: vscode.Uri) => {
    const ref = uri && refOfUri(uri);
    if (!ref) return void vscode.window.showInformationMessage('Download…: choose a file or folder of a container (Browse Container Files… on a pod).');
    const files = registry.of(ref);
    const entry = await files.stat(ref.path);
    const name = ref.path === '/' ? 'root' : path.posix.basename(ref.path);
    let into: string;
    let rename: string | undefined;
    if (entry.type === 'directory') {
      const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Download Here', title: `Download ${ref.path} from ${containerTitle(ref)} into…` });
      if (!picked?.[0]) return;
      into = picked[0].fsPath;
      if (fs.existsSync(path.join(into, name))) {
        const replace = await vscode.window.showWarningMessage(`${path.join(into, name)} exists. Download into it?`, { modal: true, detail: 'Files of the same names in it are replaced; others stay.' }, 'Download');
        if (replace !== 'Download') return;
      }
    } else {
      const saveTo = await vscode.window.showSaveDialog({ title: `Download ${ref.path} from ${containerTitle(ref)}`, defaultUri: vscode.Uri.file(path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.env.HOME ?? '/', name)) });
      if (!saveTo) return;
      into = fs.mkdtempSync(path.join(path.dirname(saveTo.fsPath), '.kube-watch-download-'));
      rename = saveTo.fsPath;
    }
    try {
      const summary = await withTransfer(`Downloading ${ref.path} from ${containerTitle(ref)}`, entry.type === 'directory' ? undefined : entry.size, (signal, onProgress) => files.download(ref.path, into, { signal, onProgress }));
      if (rename) fs.renameSync(path.join(into, path.posix.basename(ref.path)), rename);
      const shown = rename ?? path.join(into, name);
      const choice = await vscode.window.showInformationMessage(downloadedWords(ref.path, shown, summary), 'Reveal');
      if (choice === 'Reveal') await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(shown));
    } finally {
      if (rename) fs.rmSync(into, { recursive: true, force: true });
    }
  };

  const upload = async (uri?: vscode.Uri) => {
    const ref = uri && refOfUri(uri);
    if (!ref) return void vscode.window.showInformationMessage('Upload…: choose a folder of a container (Browse Container Files… on a pod).');
    const kind = await vscode.window.showQuickPick(['Files…', 'A Folder…'], { title: `Upload into ${ref.path} of ${containerTitle(ref)}` });
    if (!kind) return;
    const picked = await vscode.window.showOpenDialog({ canSelectFiles: kind === 'Files…', canSelectFolders: kind !== 'Files…', canSelectMany: kind === 'Files…', openLabel: 'Upload', title: `Upload into ${ref.path} of ${containerTitle(ref)}` });
    if (!picked?.length) return;
    const names = picked.map((p) => path.basename(p.fsPath));
    const sure = await vscode.window.showWarningMessage(`Upload ${names.join(', ')} into ${ref.path} of ${containerTitle(ref)}?`, { modal: true, detail: 'Files of the same names there are replaced. The copy runs tar in the container, as kubectl cp does.' }, 'Upload');
    if (sure !== 'Upload') return;
    const files = registry.of(ref);
    const result = await withTransfer(`Uploading to ${ref.path} of ${containerTitle(ref)}`, undefined, (signal, onProgress) => files.upload(picked.map((p) => p.fsPath), ref.path, { signal, onProgress }));
    provider.changed(uri);
    void vscode.window.showInformationMessage(`Uploaded ${result.files} file${result.files === 1 ? '' : 's'} (${bytesText(result.bytes)}) into ${ref.path} of ${containerTitle(ref)}.`);
  };

  /** A transfer under a cancellable notification with its progress; cancelling stops the exec. */
  const withTransfer = <T>(title: string, size: number | undefined, run: (signal: AbortSignal, onProgress: (done: number, total?: number) => void) => Promise<T>): Thenable<T> =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const { signal, done } = registry.signal(token);
      let last = 0;
      try {
        return await run(signal, (bytes, total) => {
          const of = total ?? size;
          progress.report(of ? { increment: ((bytes - last) / of) * 100, message: `${bytesText(bytes)} of ${bytesText(of)}` } : { message: bytesText(bytes) });
          last = bytes;
        });
      } finally {
        done();
      }
    });

  const report = (what: string) => (err: unknown) => {
    if (err instanceof Cancelled) return void vscode.window.showInformationMessage(`${what}: ${err.message}.`);
    const message = messageOf(err);
    // "Upload refused: …" already says whose failure it is.
    void vscode.window.showErrorMessage(message.startsWith(`${what} `) ? message : `${what}: ${message}`);
  };

  return vscode.Disposable.from(
    { dispose: () => [...pickers].forEach((qp) => qp.hide()) },
    registry,
    provider,
    vscode.workspace.registerFileSystemProvider(FILES_SCHEME, provider, { isReadonly: true, isCaseSensitive: true }),
    vscode.commands.registerCommand(BROWSE_FILES_COMMAND, (arg?: unknown) => browse(arg).catch(report('Browse Container Files'))),
    vscode.commands.registerCommand(DOWNLOAD_FILES_COMMAND, (uri?: vscode.Uri) => download(uri).catch(report('Download'))),
    vscode.commands.registerCommand(UPLOAD_FILES_COMMAND, (uri?: vscode.Uri) => upload(uri).catch(report('Upload'))),
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The pod (a row's argument, else a picker over watched pods) and its container (a picker when several). */
async function pickContainer(manager: BrowseSource, arg: unknown): Promise<Omit<ContainerFileRef, 'path'> | undefined> {
  let ref = podRefOf(arg);
  if (!ref) {
    const items: Array<vscode.QuickPickItem & { ref: { entryId: string; namespace: string; name: string } }> = [];
    for (const entry of manager.entries()) {
      if (entry.type?.kind !== 'Pod' || !entry.informer) continue;
      for (const pod of entry.informer.list()) items.push({ label: pod.metadata.name ?? '', description: pod.metadata.namespace ?? '', ref: { entryId: entry.id, namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '' } });
    }
    if (items.length === 0) return void vscode.window.showInformationMessage('No pod is watched: add "pods" to the watched resources first (Kube Watch: Choose Resources…).');
    ref = (await vscode.window.showQuickPick(items, { title: 'Browse Container Files: pick a pod', matchOnDescription: true }))?.ref;
    if (!ref) return undefined;
  }
  const pod = manager.entry(ref.entryId)?.informer?.get(ref.namespace, ref.name);
  if (!pod) return void vscode.window.showWarningMessage(`Pod ${ref.namespace}/${ref.name} is not in the watched cache any more.`);
  const containers = containersOf(pod);
  const container = containers.length <= 1 ? containers[0] : await vscode.window.showQuickPick(containers, { title: `Browse Container Files: ${ref.name}`, placeHolder: 'Container' });
  if (!container) return undefined;
  return { entryId: ref.entryId, namespace: ref.namespace, pod: ref.name, container };
}

function containersOf(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as { containers?: Array<{ name?: string }>; ephemeralContainers?: Array<{ name?: string }> };
  return [...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name ?? '').filter(Boolean);
}

function podRefOf(arg: unknown): { entryId: string; namespace: string; name: string } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { entryId, namespace, name } = arg as Partial<Record<'entryId' | 'namespace' | 'name', unknown>>;
  return typeof entryId === 'string' && typeof namespace === 'string' && typeof name === 'string' ? { entryId, namespace, name } : undefined;
}
