import * as fs from 'node:fs';
import * as path from 'node:path';
import { extract, type Extract, type Header } from 'tar-stream';
import { checkEntryName, EscapeRefused, insideRealFolder, isWithin, linkStaysInside } from './entry-guard';

/** An entry's content as tar-stream gives it: Buffers (its types say unknown). */
type EntryContent = AsyncIterable<Buffer> & { resume(): unknown };

/** What an extraction wrote. */
export interface ExtractSummary {
  readonly files: number;
  readonly folders: number;
  readonly links: number;
  /** Devices, fifos and the like: never made on this side. */
  readonly skipped: string[];
  readonly bytes: number;
}

export interface ExtractOptions {
  /** Every entry must lie under this archive path (the one thing asked for: `kubectl cp`'s prefix check). */
  readonly prefix: string;
  /** Bytes of file content written so far. */
  readonly onProgress?: (bytes: number) => void;
  /** Called once when an entry is refused (the caller stops the exec that sends the archive). */
  readonly onRefused?: (err: Error) => void;
}

/**
 * Writes a tar archive's entries into the local folder `root`, as it streams, refusing any
 * entry that would land outside it (entry-guard.ts): an absolute or `..` name, an entry outside
 * the prefix asked for, a symlink pointing out, a file written through a link that leads out,
 * or onto an existing link (files are opened with O_NOFOLLOW). The first refusal stops the
 * extraction: later entries are not read. `sink` takes the archive; `finish` resolves once all of
 * it is written, or rejects with the refusal.
 */
export class ArchiveExtractor {
  readonly sink: Extract;
  private readonly realRoot: string;
  private failure: Error | undefined;
  private files = 0;
  private folders = 0;
  private links = 0;
  private bytes = 0;
  private readonly skipped: string[] = [];
  private readonly done: Promise<void>;

  constructor(
    private readonly root: string,
    private readonly options: ExtractOptions,
  ) {
    fs.mkdirSync(root, { recursive: true });
    this.realRoot = fs.realpathSync(root);
    this.sink = extract();
    this.sink.on('entry', (header, stream, next) => {
      this.entry(header, stream as unknown as EntryContent).then(
        () => next(),
        (err: Error) => {
          this.fail(err);
          stream.resume();
          next(err);
        },
      );
    });
    this.done = new Promise<void>((resolve, reject) => {
      this.sink.on('finish', () => resolve());
      this.sink.on('close', () => (this.failure ? reject(this.failure) : resolve()));
      this.sink.on('error', (err: Error) => reject(this.failure ?? err));
    });
    this.done.catch(() => undefined);
  }

  /** The refusal that stopped the extraction, if any. */
  get refused(): Error | undefined {
    return this.failure;
  }

  /** Ends the archive (the command ended) and waits for the last entry to be written. */
  async finish(): Promise<ExtractSummary> {
    if (!this.failure) this.sink.end(undefined); // streamx's end takes an optional last chunk
    await this.done;
    return { files: this.files, folders: this.folders, links: this.links, skipped: this.skipped, bytes: this.bytes };
  }

  /** Stops at once (cancelled or the connection dropped): the entry being written stays partial. */
  abort(err: Error): void {
    this.failure ??= err;
    this.sink.destroy(err);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.options.onRefused?.(err);
  }

  private async entry(header: Header, stream: EntryContent): Promise<void> {
    const checked = checkEntryName(header.name);
    if ('why' in checked) throw new EscapeRefused(header.name, checked.why, 'download');
    const prefix = checkEntryName(this.options.prefix);
    const prefixParts = 'parts' in prefix ? prefix.parts : [];
    if (prefixParts.some((p, i) => checked.parts[i] !== p)) throw new EscapeRefused(header.name, `is not inside "${this.options.prefix}", the one thing asked for`, 'download');
    const dest = path.join(this.root, ...checked.parts);
    if (!isWithin(this.root, dest)) throw new EscapeRefused(header.name, 'resolves outside the folder', 'download');
    const parent = path.dirname(dest);
    if (header.type === 'directory') {
      this.makeFolder(dest, header.name);
      this.folders++;
      return stream.resume() as void;
    }
    this.makeFolder(parent, header.name);
    if (header.type === 'symlink') {
      if (!linkStaysInside(checked.parts, header.linkname)) throw new EscapeRefused(header.name, `is a symbolic link to "${header.linkname}", which points outside the folder`, 'download');
      this.removeExistingLink(dest, header.name);
      fs.symlinkSync(header.linkname, dest);
      this.links++;
      return stream.resume() as void;
    }
    if (header.type === 'link') {
      const target = checkEntryName(header.linkname);
      if ('why' in target) throw new EscapeRefused(header.name, `is a hard link to "${header.linkname}", which ${target.why}`, 'download');
      const source = path.join(this.root, ...target.parts);
      if (!insideRealFolder(this.realRoot, path.dirname(source)) || fs.lstatSync(source, { throwIfNoEntry: false })?.isSymbolicLink()) throw new EscapeRefused(header.name, `is a hard link to "${header.linkname}", which leads outside the folder`, 'download');
      this.removeExistingLink(dest, header.name);
      fs.linkSync(source, dest);
      this.files++;
      return stream.resume() as void;
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file') {
      this.skipped.push(header.name);
      return stream.resume() as void;
    }
    await this.writeFile(dest, header, stream);
  }

  /** Makes `dir` (and its parents), then checks it really is inside the root, links followed. */
  private makeFolder(dir: string, entry: string): void {
    fs.mkdirSync(dir, { recursive: true });
    if (!insideRealFolder(this.realRoot, dir)) throw new EscapeRefused(entry, 'would be written through a symbolic link that leads outside the folder', 'download');
  }

  private removeExistingLink(dest: string, entry: string): void {
    const existing = fs.lstatSync(dest, { throwIfNoEntry: false });
    if (existing?.isDirectory()) throw new EscapeRefused(entry, 'would replace a folder', 'download');
    if (existing) fs.unlinkSync(dest);
  }

  private async writeFile(dest: string, header: Header, stream: AsyncIterable<Buffer>): Promise<void> {
    const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(dest, O_WRONLY | O_CREAT | O_TRUNC | (O_NOFOLLOW ?? 0), (header.mode ?? 0o644) & 0o777);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new EscapeRefused(header.name, 'would be written through an existing symbolic link', 'download');
      throw err;
    }
    try {
      for await (const chunk of stream) {
        await handle.write(chunk);
        this.bytes += chunk.length;
        this.options.onProgress?.(this.bytes);
      }
    } finally {
      await handle.close();
    }
    this.files++;
  }
}
