import * as vscode from 'vscode';
import { ContainerFiles, FilesError, type ContainerEntry } from '../../container-files';
import { OriginTransport, type ObjectOrigin, type OriginResolution } from '../../manager';
import { FILES_SCHEME, fileUriParts, parseFileUri, type ContainerFileRef } from '../../ui/container-files/files-uri';

/** What the files need of the manager (a WatchManager is one). */
export interface FilesSource {
  originOf(id: string): ObjectOrigin | undefined;
  resolveOrigin(origin: ObjectOrigin): OriginResolution;
}

/** Files bigger than this are read under a cancellable progress notification. */
const PROGRESS_FROM_BYTES = 1 << 20;

/**
 * The containers' files by container: one `ContainerFiles` each (its image's commands found
 * once), on a transport pinned to the pod's cluster (OriginTransport). `dispose` cancels every
 * command still running.
 */
export class ContainerFilesRegistry implements vscode.Disposable {
  private readonly byContainer = new Map<string, ContainerFiles>();
  private readonly running = new Set<AbortController>();

  constructor(private readonly source: FilesSource) {}

  of(ref: Omit<ContainerFileRef, 'path'>): ContainerFiles {
    const key = JSON.stringify([ref.entryId, ref.namespace, ref.pod, ref.container]);
    let files = this.byContainer.get(key);
    if (!files) {
      const transport = new OriginTransport(this.source.originOf(ref.entryId), (o) => this.source.resolveOrigin(o), `${ref.namespace}/${ref.pod}`);
      this.byContainer.set(key, (files = new ContainerFiles(transport, { namespace: ref.namespace, pod: ref.pod, container: ref.container })));
    }
    return files;
  }

  /** A signal cancelled by `token` or by disposal; `done` forgets it. */
  signal(token?: vscode.CancellationToken): { signal: AbortSignal; done: () => void } {
    const ctl = new AbortController();
    this.running.add(ctl);
    const sub = token?.onCancellationRequested(() => ctl.abort());
    return {
      signal: ctl.signal,
      done: () => {
        sub?.dispose();
        this.running.delete(ctl);
      },
    };
  }

  dispose(): void {
    for (const ctl of this.running) ctl.abort();
    this.running.clear();
    this.byContainer.clear();
  }
}

export function fileUri(ref: ContainerFileRef): vscode.Uri {
  return vscode.Uri.from({ scheme: FILES_SCHEME, ...fileUriParts(ref) });
}

export function refOfUri(uri: vscode.Uri): ContainerFileRef | undefined {
  return uri.scheme === FILES_SCHEME ? parseFileUri(uri.authority, uri.path) : undefined;
}

/**
 * `kubewatch-files:` — a container's files, read-only: stat, folder listings and file contents
 * through exec (ContainerFiles). Writes are refused (Upload… writes, through tar, on purpose);
 * `changed` tells the editor a folder changed after an upload.
 */
export class ContainerFilesProvider implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  constructor(private readonly registry: ContainerFilesRegistry) {}

  changed(folder: vscode.Uri): void {
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri: folder }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    return this.call(uri, async (files, ref, signal) => {
      const entry = await files.stat(ref.path, signal);
      let type = kindOf(entry);
      if (entry.type === 'symlink') {
        // A link reads as what it leads to (a folder through a link opens as a folder).
        const target = await files.stat(`${ref.path}/`, signal).catch(() => undefined);
        type = vscode.FileType.SymbolicLink | (target?.type === 'directory' ? vscode.FileType.Directory : vscode.FileType.File);
      }
      return { type, ctime: entry.mtimeMs ?? 0, mtime: entry.mtimeMs ?? 0, size: entry.size, permissions: vscode.FilePermission.Readonly };
    });
  }

  async readDirectory(uri: vscode.Uri): Promise<Array<[string, vscode.FileType]>> {
    return this.call(uri, async (files, ref, signal) => (await files.list(ref.path, signal)).map((e) => [e.name, kindOf(e)]));
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.call(uri, async (files, ref, signal) => {
      const entry = await files.stat(ref.path, signal).catch(() => undefined);
      if (!entry || entry.size < PROGRESS_FROM_BYTES) return files.read(ref.path, { signal });
      return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Reading ${ref.path} from ${files.where}`, cancellable: true }, async (progress, token) => {
        const local = new AbortController();
        signal.addEventListener('abort', () => local.abort(), { once: true });
        const sub = token.onCancellationRequested(() => local.abort());
        let last = 0;
        const onProgress = (done: number) => {
          progress.report({ increment: ((done - last) / entry.size) * 100 });
          last = done;
        };
        try {
          return await files.read(ref.path, { signal: local.signal, size: entry.size, onProgress });
        } finally {
          sub.dispose();
        }
      });
    });
  }

  private async call<T>(uri: vscode.Uri, run: (files: ContainerFiles, ref: ContainerFileRef, signal: AbortSignal) => Promise<T>): Promise<T> {
    const ref = refOfUri(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    const { signal, done } = this.registry.signal();
    try {
      return await run(this.registry.of(ref), ref, signal);
    } catch (err) {
      const words = err instanceof Error ? err.message : String(err);
      if (err instanceof FilesError && /no such file or folder/i.test(words)) throw vscode.FileSystemError.FileNotFound(uri);
      throw new vscode.FileSystemError(words);
    } finally {
      done();
    }
  }

  writeFile(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(`${uri.path} is read-only: a container's files change through Upload…`);
  }

  createDirectory(uri: vscode.Uri): never {
    return this.writeFile(uri);
  }

  delete(uri: vscode.Uri): never {
    return this.writeFile(uri);
  }

  rename(uri: vscode.Uri): never {
    return this.writeFile(uri);
  }

  dispose(): void {
    this.changes.dispose();
  }
}

function kindOf(entry: ContainerEntry): vscode.FileType {
  return entry.type === 'directory' ? vscode.FileType.Directory : entry.type === 'symlink' ? vscode.FileType.SymbolicLink | vscode.FileType.File : entry.type === 'file' ? vscode.FileType.File : vscode.FileType.Unknown;
}
