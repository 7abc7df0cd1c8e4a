import { posix } from 'node:path';
import { extract, type Header } from 'tar-stream';
import type { KubeTransport } from '../informer/transport';
import { ArchiveExtractor, type ExtractSummary } from './archive-extract';
import { checkUpload, packUpload, planUpload, uploadBytes, type UploadItem } from './archive-pack';
import { detectTools, noTarWords, toolsWords, type ContainerTools } from './container-tools';
import { Cancelled, failureWords, runInContainer, succeeded, type ContainerTarget, type OutputSink, type RunOutcome } from './exec-run';
import { FIND_FORMAT, onlyVanishedEntries, parseFindOutput, parseLsOutput, sortEntries, type ContainerEntry } from './listing';

/** Progress of a transfer: bytes so far, and of how many when known. */
export type Progress = (done: number, total?: number) => void;

export interface TransferOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: Progress;
}

/** A copy refused or failed, in words (no tar, no such file, the command failed). */
export class FilesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FilesError';
  }
}

/**
 * A container's files through exec alone, as `kubectl cp` reaches them: which commands the image
 * has is found once (`tools`), then folders are listed, files read, and copies made through
 * `tar` over the exec streams of `transport` (an OriginTransport: the pod's own cluster).
 * Downloads refuse any entry that escapes the target folder (archive-extract.ts); uploads refuse
 * any item that does (archive-pack.ts). Every command's stream is closed when its call settles;
 * a cancelled call (its `signal`) closes it at once.
 */
export class ContainerFiles {
  private detected: Promise<ContainerTools> | undefined;

  constructor(
    private readonly transport: KubeTransport,
    readonly target: ContainerTarget,
  ) {}

  /** `pod/container` in the user's words. */
  get where(): string {
    return `${this.target.namespace}/${this.target.pod}${this.target.container ? ` (container ${this.target.container})` : ''}`;
  }

  /** The image's commands for files, asked once per container (a failed ask is asked again). */
  tools(signal?: AbortSignal): Promise<ContainerTools> {
    if (!this.detected) {
      this.detected = detectTools(this.transport, this.target, signal);
      this.detected.catch(() => (this.detected = undefined));
    }
    return this.detected;
  }

  /** The sentence that says how the files are reached (and what cannot be done). */
  async describe(signal?: AbortSignal): Promise<string> {
    return toolsWords(await this.tools(signal), this.where);
  }

  /** The container's working directory (where a relative path starts; `/` when unknown). */
  async workingDirectory(signal?: AbortSignal): Promise<string> {
    const tools = await this.tools(signal);
    let cwd: string | undefined;
    if (tools.list === 'tar') {
      // Not through `-C` (tar's own folder would change): the link as an archive member.
      await this.readArchive(['tar', 'cf', '-', '/proc/self/cwd'], 'find the working directory', signal, (header) => ((cwd = header.linkname), 'stop')).catch(() => undefined);
    } else if (tools.list) {
      cwd = (await this.stat('/proc/self/cwd', signal).catch(() => undefined))?.linkTarget;
    }
    return cwd?.startsWith('/') ? cwd : '/';
  }

  /** The entries of folder `dir`, folders first. */
  async list(dir: string, signal?: AbortSignal): Promise<ContainerEntry[]> {
    const tools = await this.need(signal);
    const listing = (outcome: RunOutcome) => (outcome.result.exitCode === 1 && onlyVanishedEntries(outcome.stderr, dir) ? outcome : this.check(outcome, `list ${dir}`));
    if (tools.list === 'find') return sortEntries(parseFindOutput(listing(await this.run(['find', dir, '-mindepth', '1', '-maxdepth', '1', '-printf', FIND_FORMAT], signal)).stdout));
    if (tools.list === 'ls') return sortEntries(parseLsOutput(listing(await this.run(['ls', '-lan', `${dir.replace(/\/+$/, '')}/`], signal)).stdout.toString('utf8')));
    const viaTar = async (command: string[]) => {
      const entries: ContainerEntry[] = [];
      await this.readArchive(command, `list ${dir}`, signal, (header) => {
        const parts = header.name.split('/').filter((p) => p && p !== '.');
        if (parts.length === 1) entries.push(entryOfHeader(parts[0], header));
        return 'continue';
      });
      return sortEntries(entries);
    };
    // Subfolders' contents left out where tar can (GNU and BusyBox with --exclude); else all of it is read and dropped.
    return viaTar(['tar', 'cf', '-', '--exclude=./*/*', '-C', dir, '.']).catch((err: unknown) => {
      if (err instanceof FilesError && /exclude|unrecognized|invalid option|unknown option/i.test(err.message)) return viaTar(['tar', 'cf', '-', '-C', dir, '.']);
      throw err;
    });
  }

  /** One entry (a link is not followed). */
  async stat(p: string, signal?: AbortSignal): Promise<ContainerEntry> {
    const tools = await this.need(signal);
    if (p === '/' || p === '') return { name: '/', type: 'directory', size: 0 };
    const name = posix.basename(p);
    if (tools.list === 'find') {
      const found = parseFindOutput(this.check(await this.run(['find', p, '-maxdepth', '0', '-printf', FIND_FORMAT], signal), `find ${p}`).stdout)[0];
      if (found) return { ...found, name };
    } else if (tools.list === 'ls') {
      const found = parseLsOutput(this.check(await this.run(['ls', '-land', p], signal), `find ${p}`).stdout.toString('utf8'))[0];
      if (found) return { ...found, name };
    } else {
      let found: ContainerEntry | undefined;
      await this.readArchive(['tar', 'cf', '-', '-C', posix.dirname(p), name], `find ${p}`, signal, (header) => ((found = entryOfHeader(name, header)), 'stop'));
      if (found) return found;
    }
    throw new FilesError(`No such file or folder in ${this.where}: ${p}`);
  }

  /**
   * A file's bytes, streamed into `sink` when given (else collected and returned), with
   * progress against `size` when the caller knows it.
   */
  async read(p: string, options: TransferOptions & { sink?: OutputSink; size?: number } = {}, links = 0): Promise<Buffer> {
    const tools = await this.need(options.signal);
    const chunks: Buffer[] = [];
    let done = 0;
    const counted: OutputSink = {
      write: (chunk) => {
        done += chunk.length;
        options.onProgress?.(done, options.size);
        if (!options.sink) return chunks.push(chunk) >= 0;
        return options.sink.write(chunk);
      },
      once: (event, listener) => (options.sink ? options.sink.once(event, listener) : listener()),
    };
    if (tools.read === 'cat') {
      this.check(await runInContainer(this.transport, this.target, ['cat', p], { signal: options.signal, stdout: counted }), `read ${p}`);
      return Buffer.concat(chunks);
    }
    if (!tools.read) throw new FilesError(`Cannot read ${p}: the image of ${this.where} has neither cat nor tar.`);
    let kind: Header['type'] | undefined;
    let target: string | undefined;
    await this.readArchive(['tar', 'cf', '-', '-C', posix.dirname(p), posix.basename(p)], `read ${p}`, options.signal, async (header, content): Promise<'stop'> => {
      kind = header.type;
      target = header.linkname;
      if (header.type !== 'file') return 'stop';
      for await (const chunk of content) if (!counted.write(chunk)) await new Promise<void>((resolve) => counted.once('drain', resolve));
      return 'stop';
    });
    if (kind === 'symlink' && target) {
      // As the kernel does for cat: a bounded number of links followed, then "too many levels".
      if (links >= 40) throw new FilesError(`Cannot read ${p} in ${this.where}: too many levels of symbolic links.`);
      return this.read(target.startsWith('/') ? target : posix.join(posix.dirname(p), target), options, links + 1);
    }
    if (kind !== 'file') throw new FilesError(`Cannot read ${p} in ${this.where}: it is ${kind === 'directory' ? 'a folder' : 'not a regular file'}.`);
    return Buffer.concat(chunks);
  }

  /**
   * Copies the file or folder `remotePath` into the local folder `localDir` (as
   * `localDir/BASENAME`) through `tar cf -` over exec, written as it streams. Refuses an archive
   * entry that escapes `localDir` (EscapeRefused), and says when the image has no tar.
   */
  async download(remotePath: string, localDir: string, options: TransferOptions & { size?: number } = {}): Promise<ExtractSummary> {
    await this.needTar(options.signal);
    const name = remotePath === '/' ? '.' : posix.basename(remotePath);
    const parent = remotePath === '/' ? '/' : posix.dirname(remotePath);
    const ctl = new AbortController();
    const stop = () => ctl.abort();
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) ctl.abort();
    const extractor = new ArchiveExtractor(localDir, { prefix: name, onProgress: (bytes) => options.onProgress?.(bytes, options.size), onRefused: stop });
    try {
      const outcome = await runInContainer(this.transport, this.target, ['tar', 'cf', '-', '-C', parent, name], { signal: ctl.signal, stdout: extractor.sink });
      if (extractor.refused) throw extractor.refused;
      this.check(outcome, `download ${remotePath}`);
      return await extractor.finish();
    } catch (err) {
      if (extractor.refused) throw extractor.refused;
      extractor.abort(err instanceof Error ? err : new Error(String(err)));
      await extractor.finish().catch(() => undefined);
      throw err;
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  }

  /**
   * Copies local files or folders (each under its own name), or a plan of `UploadItem`s, into the
   * container's folder `remoteDir` through `tar xf - -C DIR` over exec. Every item is checked
   * before a byte is sent: one that escapes the folder refuses the whole upload (EscapeRefused).
   */
  async upload(source: readonly string[] | { readonly items: readonly UploadItem[] }, remoteDir: string, options: TransferOptions = {}): Promise<{ files: number; bytes: number }> {
    const items = 'items' in source ? source.items : planUpload(source);
    // Every item checked before any exec starts: an upload that escapes opens nothing.
    checkUpload(items);
    await this.needTar(options.signal);
    const total = uploadBytes(items);
    const archive = packUpload(items, (bytes) => options.onProgress?.(bytes, total));
    try {
      const outcome = await runInContainer(this.transport, this.target, ['tar', '-xmf', '-', '-C', remoteDir], { signal: options.signal, stdin: archive });
      this.check(outcome, `upload to ${remoteDir}`);
    } finally {
      await archive.return(undefined);
    }
    return { files: items.filter((i) => i.type === 'file').length, bytes: total };
  }

  private run(command: string[], signal?: AbortSignal): Promise<RunOutcome> {
    return runInContainer(this.transport, this.target, command, { signal });
  }

  private async need(signal?: AbortSignal): Promise<ContainerTools> {
    const tools = await this.tools(signal);
    if (!tools.list) throw new FilesError(toolsWords(tools, this.where));
    return tools;
  }

  private async needTar(signal?: AbortSignal): Promise<void> {
    if (!(await this.tools(signal)).tar) throw new FilesError(`${noTarWords(this.where)}.`.replace(/^t/, 'T'));
  }

  private check(outcome: RunOutcome, what: string): RunOutcome {
    if (succeeded(outcome)) return outcome;
    const words = failureWords(outcome);
    if (/no such file|cannot access|not found|cannot stat|cannot open/i.test(outcome.stderr)) throw new FilesError(`Cannot ${what} in ${this.where}: no such file or folder (${outcome.stderr.trim().split('\n')[0]}).`);
    throw new FilesError(`Cannot ${what} in ${this.where}: ${words}.`);
  }

  /**
   * Runs a `tar c…` and hands each entry to `onEntry`; `'stop'` closes the command's stream (the
   * rest of the archive is not read).
   */
  private async readArchive(command: string[], what: string, signal: AbortSignal | undefined, onEntry: (header: Header, content: AsyncIterable<Buffer>) => 'continue' | 'stop' | Promise<'continue' | 'stop'>): Promise<void> {
    const ctl = new AbortController();
    const stop = () => ctl.abort();
    signal?.addEventListener('abort', stop, { once: true });
    const sink = extract();
    let stopped = false;
    let failed: Error | undefined;
    sink.on('entry', (header, stream, next) => {
      if (stopped || failed) return void (stream.resume(), next());
      Promise.resolve(onEntry(header, stream as unknown as AsyncIterable<Buffer>)).then(
        (answer) => {
          stream.resume();
          if (answer === 'stop') {
            stopped = true;
            ctl.abort();
          }
          next();
        },
        (err: Error) => ((failed = err), ctl.abort(), next()),
      );
    });
    sink.on('error', () => undefined);
    try {
      const outcome = await runInContainer(this.transport, this.target, command, { signal: ctl.signal, stdout: sink });
      this.check(outcome, what);
      // The command ended: the entries still buffered are read before the answer is complete.
      await new Promise<void>((resolve) => {
        sink.once('close', () => resolve());
        sink.once('finish', () => resolve());
        sink.end(undefined); // streamx's end takes an optional last chunk
      });
      if (failed) throw failed;
    } catch (err) {
      if (failed) throw failed;
      if (!(stopped && err instanceof Cancelled && !signal?.aborted)) throw err;
    } finally {
      signal?.removeEventListener('abort', stop);
      sink.destroy();
    }
  }
}

function entryOfHeader(name: string, header: Header): ContainerEntry {
  const type = header.type === 'file' || header.type === 'contiguous-file' ? 'file' : header.type === 'directory' ? 'directory' : header.type === 'symlink' ? 'symlink' : 'other';
  return { name, type, size: header.size ?? 0, mode: (header.mode ?? 0) & 0o7777, ...(header.mtime ? { mtimeMs: header.mtime.getTime() } : {}), ...(type === 'symlink' ? { linkTarget: header.linkname } : {}) };
}
