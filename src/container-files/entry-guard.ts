import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The checks that keep an archive's entries inside the folder they go to: the traversal cases
 * `kubectl cp` fixed one by one (CVE-2018-1002100 `../` names, CVE-2019-1002101 and
 * CVE-2019-11246 symlinks and prefixes, CVE-2019-11249 and CVE-2019-11251 a symlink written
 * through). Here an entry is refused, not skipped: the copy stops and says which entry and why.
 * Invariant: nothing is written through a path that `checkEntryName` refused, and a file is only
 * written where `insideRealFolder` found its parent folder really inside the target.
 */
export class EscapeRefused extends Error {
  constructor(
    readonly entry: string,
    readonly why: string,
    readonly direction: 'download' | 'upload',
  ) {
    super(`${direction === 'download' ? 'Download' : 'Upload'} refused: the entry "${entry}" ${why}. Nothing was written outside the folder it was copied to; ${direction === 'download' ? 'an archive like this is what a compromised container could send (the case kubectl cp refuses)' : 'choose files inside the folder to upload'}.`);
    this.name = 'EscapeRefused';
  }
}

/** The entry's path split into its parts, or why it may not be used (absolute, `..`, empty). */
export function checkEntryName(name: string): { parts: string[] } | { why: string } {
  if (name.includes('\0')) return { why: 'has a NUL character in its name' };
  if (name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(name) || name.startsWith('\\')) return { why: 'has an absolute path, which would be written at that path' };
  const parts = name.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return { why: 'climbs out with "..", which would be written above the folder' };
  return { parts };
}

/**
 * Whether a symbolic link at `entryParts` (relative to the folder) pointing to `target` stays in
 * the folder: an absolute target never does (it names the reader's own files), a relative one
 * must not climb above the folder.
 */
export function linkStaysInside(entryParts: readonly string[], target: string): boolean {
  if (target === '' || target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target)) return false;
  const resolved = path.posix.normalize(path.posix.join(...(entryParts.length > 1 ? entryParts.slice(0, -1) : ['.']), target));
  return resolved !== '..' && !resolved.startsWith('../');
}

/** Whether `candidate` is `root` or inside it (both absolute, already resolved). */
export function isWithin(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether the folder `dir` really lies in `realRoot` once every symbolic link on the way is
 * followed (a link made by an earlier entry, or one that was already there): the check that
 * catches a file written through a link.
 */
export function insideRealFolder(realRoot: string, dir: string): boolean {
  try {
    return isWithin(realRoot, fs.realpathSync(dir));
  } catch {
    return false;
  }
}
