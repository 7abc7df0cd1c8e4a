import * as fs from 'node:fs';
import * as path from 'node:path';
import { pack } from 'tar-stream';
import { checkEntryName, EscapeRefused, linkStaysInside } from './entry-guard';

/** One thing to upload, named by its path inside the archive (relative to the target folder). */
export interface UploadItem {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink';
  /** The local file, for a file. */
  readonly localPath?: string;
  readonly linkTarget?: string;
  readonly size: number;
  readonly mode: number;
  readonly mtime: Date;
}

/** tar's record: `tar xf -` reads whole records, so the archive is padded to one (v4 has no stdin close). */
const RECORD = 10240;

/**
 * The items of uploading `localPaths` (files or folders, each under its own name) into a folder:
 * folders walked, symbolic links kept as links when they stay inside what is uploaded, refused
 * (EscapeRefused) when they point out (uploading one would make the container's copy lead
 * elsewhere, or the reader follow it into this machine's files).
 */
export function planUpload(localPaths: readonly string[]): UploadItem[] {
  const items: UploadItem[] = [];
  const visit = (local: string, name: string) => {
    const st = fs.lstatSync(local);
    const common = { name, mode: st.mode & 0o7777, mtime: st.mtime };
    if (st.isSymbolicLink()) {
      const target = fs.readlinkSync(local);
      if (!linkStaysInside(name.split('/'), target)) throw new EscapeRefused(name, `is a symbolic link to "${target}", which points outside the folder being uploaded`, 'upload');
      items.push({ ...common, type: 'symlink', linkTarget: target, size: 0 });
    } else if (st.isDirectory()) {
      items.push({ ...common, type: 'directory', size: 0 });
      for (const child of fs.readdirSync(local).sort()) visit(path.join(local, child), `${name}/${child}`);
    } else if (st.isFile()) {
      items.push({ ...common, type: 'file', localPath: local, size: st.size });
    }
  };
  for (const p of localPaths) visit(p, path.basename(p));
  return items;
}

/** Bytes of file content an upload sends. */
export function uploadBytes(items: readonly UploadItem[]): number {
  return items.reduce((n, i) => n + (i.type === 'file' ? i.size : 0), 0);
}

/** Every item's name and link checked before anything is sent: an upload that escapes sends nothing. */
export function checkUpload(items: readonly UploadItem[]): void {
  for (const item of items) {
    const checked = checkEntryName(item.name);
    if ('why' in checked) throw new EscapeRefused(item.name, checked.why, 'upload');
    if (item.type === 'symlink' && !linkStaysInside(checked.parts, item.linkTarget ?? '')) throw new EscapeRefused(item.name, `is a symbolic link to "${item.linkTarget}", which points outside the folder`, 'upload');
  }
}

/**
 * The tar archive of `items` (checked first, `checkUpload`), streamed as it is read: file
 * contents are read in chunks, never whole. `onProgress` counts file bytes packed.
 */
export async function* packUpload(items: readonly UploadItem[], onProgress?: (bytes: number) => void): AsyncGenerator<Buffer> {
  checkUpload(items);
  const archive = pack();
  let packed = 0;
  let reading: fs.ReadStream | undefined;
  const closed = new Promise<void>((resolve) => archive.once('close', () => resolve()));
  const produce = async () => {
    for (const item of items) {
      const header = { name: item.name, mode: item.mode, mtime: item.mtime };
      if (item.type === 'directory') await entryDone((cb) => archive.entry({ ...header, type: 'directory' }, cb));
      else if (item.type === 'symlink') await entryDone((cb) => archive.entry({ ...header, type: 'symlink', linkname: item.linkTarget }, cb));
      else {
        const file = (reading = fs.createReadStream(item.localPath!, { highWaterMark: 64 * 1024 }));
        let sent = 0;
        await entryDone(async (cb) => {
          const sink = archive.entry({ ...header, type: 'file', size: item.size }, cb);
          for await (const chunk of file as AsyncIterable<Buffer>) {
            const room = item.size - sent;
            const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
            sent += part.length;
            packed += part.length;
            if (archive.destroyed) return;
            if (!sink.write(part)) await Promise.race([new Promise<void>((resolve) => sink.once('drain', () => resolve())), closed]);
          }
          if (sent !== item.size) throw new Error(`${item.localPath} changed while it was uploaded (${sent} of ${item.size} bytes)`);
          sink.end(undefined); // streamx's end takes an optional last chunk
        });
      }
    }
    archive.finalize();
  };
  produce().catch((err: Error) => archive.destroy(err));
  let total = 0;
  try {
    for await (const chunk of archive as AsyncIterable<Buffer>) {
      total += chunk.length;
      onProgress?.(packed);
      yield chunk;
    }
  } finally {
    // The reader stopped early (cancelled): the files being read are closed with the archive.
    archive.destroy();
    reading?.destroy();
  }
  if (total % RECORD !== 0) yield Buffer.alloc(RECORD - (total % RECORD));
}

function entryDone(start: (cb: (err?: Error | null) => void) => unknown): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const started = start((err) => (err ? reject(err) : resolve()));
    if (started instanceof Promise) started.catch(reject);
  });
}
