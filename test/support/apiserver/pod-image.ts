/**
 * What a simulated pod's image holds, from its annotations, for the commands its exec runs:
 * - `kube-watch.test/commands: "sh,ls,cat"`: the image has only these commands (its PATH is a
 *   folder of links to the host's, so `tar` missing from the list is an image without tar, as a
 *   distroless one is); without it the image has every command of the host's PATH;
 * - `kube-watch.test/files: "true"`: files to browse in the pod's working directory (a config,
 *   a folder with a space in a name, a symlink inside, a larger file);
 * - `kube-watch.test/tar-output: BASE64`: the image's `tar` is a hostile one that answers any
 *   `tar c…` with this archive (entries that escape, as a compromised container could send, the
 *   case `kubectl cp` fixed), and runs the host's tar for anything else.
 * The image's folder lives beside the pod's scratch directory and goes with it.
 */
import { accessSync, chmodSync, constants, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const COMMANDS_ANNOTATION = 'kube-watch.test/commands';
export const FILES_ANNOTATION = 'kube-watch.test/files';
export const TAR_OUTPUT_ANNOTATION = 'kube-watch.test/tar-output';

/** Where `command` is on the host's PATH, or undefined. */
export function hostCommand(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The PATH of a pod's commands: the host's, or (when the annotations restrict or replace tools)
 * a folder made once in `imageDir`.
 */
export function imagePath(annotations: Record<string, string>, imageDir: string): string {
  const hostPath = process.env.PATH ?? '/usr/bin:/bin';
  const listed = annotations[COMMANDS_ANNOTATION];
  const tarOutput = annotations[TAR_OUTPUT_ANNOTATION];
  if (!listed && !tarOutput) return hostPath;
  const bin = join(imageDir, 'bin');
  mkdirSync(bin, { recursive: true });
  const commands = listed ? listed.split(',').map((c) => c.trim()).filter(Boolean) : undefined;
  if (commands) {
    for (const c of commands) {
      const host = hostCommand(c);
      if (host) linkOnce(host, join(bin, c));
    }
  }
  if (tarOutput) {
    const archive = join(imageDir, 'archive.tar');
    writeFileSync(archive, Buffer.from(tarOutput, 'base64'));
    const script = join(bin, 'tar');
    writeFileSync(script, `#!${hostCommand('sh') ?? '/bin/sh'}\ncase "$1" in c*|-c*) exec ${hostCommand('cat') ?? '/bin/cat'} '${archive}' ;; *) exec ${hostCommand('tar') ?? '/bin/tar'} "$@" ;; esac\n`);
    chmodSync(script, 0o755);
  }
  return commands ? bin : `${bin}${delimiter}${hostPath}`;
}

function linkOnce(target: string, link: string): void {
  try {
    symlinkSync(target, link);
  } catch {
    // made by an earlier exec
  }
}

/** Seeds a pod's working directory with files to browse, when its annotation asks. */
export function seedFiles(annotations: Record<string, string>, dir: string): void {
  if (annotations[FILES_ANNOTATION] !== 'true') return;
  mkdirSync(join(dir, 'app', 'static'), { recursive: true });
  mkdirSync(join(dir, 'app', 'empty'), { recursive: true });
  writeFileSync(join(dir, 'app', 'config.yaml'), 'port: 8080\nname: web\nlogLevel: info\n');
  writeFileSync(join(dir, 'app', 'static', 'index.html'), '<h1>web</h1>\n');
  writeFileSync(join(dir, 'app', 'name with spaces.txt'), 'spaces are fine\n');
  writeFileSync(join(dir, 'app', 'data.bin'), Buffer.alloc(256 * 1024, 7));
  linkOnce('static', join(dir, 'app', 'current'));
  writeFileSync(join(dir, 'README.md'), '# web\nThe files of a simulated container.\n');
}
