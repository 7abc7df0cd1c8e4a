/** One entry of a folder inside a container. */
export interface ContainerEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Bytes (of the link itself for a symlink). */
  readonly size: number;
  /** Last modified, when the listing said it in a form read without doubt. */
  readonly mtimeMs?: number;
  /** Permission bits. */
  readonly mode?: number;
  readonly linkTarget?: string;
}

/**
 * GNU find's `-printf` format for one entry: every field NUL-terminated, so a name holding tabs,
 * newlines or ` -> ` is read exactly (a name cannot hold a NUL).
 */
export const FIND_FORMAT = '%y\\0%s\\0%T@\\0%m\\0%l\\0%f\\0';
const FIND_FIELDS = 6;

function typeOfLetter(letter: string): ContainerEntry['type'] {
  return letter === 'f' || letter === '-' ? 'file' : letter === 'd' ? 'directory' : letter === 'l' ? 'symlink' : 'other';
}

/** Entries of `find DIR -mindepth 1 -maxdepth 1 -printf FIND_FORMAT` (or `-maxdepth 0` for one). */
export function parseFindOutput(output: Buffer): ContainerEntry[] {
  const fields = output.toString('utf8').split('\0');
  const entries: ContainerEntry[] = [];
  for (let i = 0; i + FIND_FIELDS <= fields.length; i += FIND_FIELDS) {
    const [letter, size, mtime, mode, link, name] = fields.slice(i, i + FIND_FIELDS);
    const type = typeOfLetter(letter);
    const seconds = Number(mtime);
    entries.push({
      name,
      type,
      size: Number(size) || 0,
      ...(Number.isFinite(seconds) ? { mtimeMs: Math.round(seconds * 1000) } : {}),
      ...(/^[0-7]+$/.test(mode) ? { mode: parseInt(mode, 8) } : {}),
      ...(type === 'symlink' ? { linkTarget: link } : {}),
    });
  }
  return entries;
}

const LS_LINE = /^([-dlcbpsD])[-rwxsStTl]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+(\d+|\d+,\s*\d+)\s+(\S+\s+\S+\s+\S+(?:\s+[-+]\d{4})?)\s(.*)$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Entries of `ls -lan DIR` (GNU or BusyBox): mode, links, uid, gid, size, a three-part date, the
 * name (`name -> target` for a link). `.` and `..` are left out. A date is kept only when it names
 * its year or time in full (the short `Nov 28 06:53` form is read in the current year).
 */
export function parseLsOutput(output: string, now = new Date()): ContainerEntry[] {
  const entries: ContainerEntry[] = [];
  for (const line of output.split('\n')) {
    const m = LS_LINE.exec(line.replace(/\r$/, ''));
    if (!m) continue;
    const type = typeOfLetter(m[1]);
    let name = m[4];
    let linkTarget: string | undefined;
    if (type === 'symlink') {
      const arrow = name.indexOf(' -> ');
      if (arrow >= 0) {
        linkTarget = name.slice(arrow + 4);
        name = name.slice(0, arrow);
      }
    }
    if (name === '.' || name === '..') continue;
    const mtimeMs = lsDate(m[3], now);
    entries.push({ name, type, size: m[2].includes(',') ? 0 : Number(m[2]), ...(mtimeMs !== undefined ? { mtimeMs } : {}), ...(linkTarget !== undefined ? { linkTarget } : {}), mode: modeOf(line.slice(1, 10)) });
  }
  return entries;
}

function lsDate(text: string, now: Date): number | undefined {
  const parts = text.split(/\s+/);
  if (/^\d{4}-\d\d-\d\d$/.test(parts[0])) {
    const t = Date.parse(`${parts[0]}T${parts[1].slice(0, 12)}${parts[2] ? parts[2].replace(/(\d\d)(\d\d)$/, '$1:$2') : 'Z'}`);
    return Number.isNaN(t) ? undefined : t;
  }
  const month = MONTHS.indexOf(parts[0].toLowerCase().slice(0, 3));
  const day = Number(parts[1]);
  if (month < 0 || !day) return undefined;
  if (/^\d{4}$/.test(parts[2])) return Date.UTC(Number(parts[2]), month, day);
  const hm = /^(\d\d?):(\d\d)$/.exec(parts[2]);
  if (!hm) return undefined;
  let t = Date.UTC(now.getUTCFullYear(), month, day, Number(hm[1]), Number(hm[2]));
  // ls shows a time (no year) for the last six months: a date ahead of now was last year.
  if (t > now.getTime() + 86_400_000) t = Date.UTC(now.getUTCFullYear() - 1, month, day, Number(hm[1]), Number(hm[2]));
  return t;
}

function modeOf(rwx: string): number {
  let mode = 0;
  for (let i = 0; i < 9; i++) if (rwx[i] && rwx[i] !== '-' && rwx[i] !== 'S' && rwx[i] !== 'T') mode |= 1 << (8 - i);
  return mode;
}

/** Entries sorted as a file browser shows them: folders first, then by name. */
export function sortEntries(entries: readonly ContainerEntry[]): ContainerEntry[] {
  const folderish = (e: ContainerEntry) => (e.type === 'directory' ? 0 : 1);
  return [...entries].sort((a, b) => folderish(a) - folderish(b) || a.name.localeCompare(b.name));
}

/**
 * Whether a listing of `dir` that exited non-zero failed only because entries inside it
 * vanished between reading the folder and looking at them (a busy `/tmp`, `/proc`): every line
 * of stderr names a direct child of `dir` as missing. The entries printed are then the listing.
 */
export function onlyVanishedEntries(stderr: string, dir: string): boolean {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return false;
  const parent = dir.replace(/\/+$/, '') || '';
  return lines.every((line) => {
    const m = /^(?:find|ls): (?:cannot access )?[‘'"`](.+)[’'"`]: No such file or directory$/.exec(line);
    if (!m) return false;
    const name = m[1].slice(parent.length + 1);
    return m[1].startsWith(`${parent}/`) && name.length > 0 && !name.includes('/');
  });
}
