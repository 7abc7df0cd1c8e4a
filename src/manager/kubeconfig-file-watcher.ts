import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../base';
import { kubeconfigCandidates } from '../cluster/kubeconfig-loader';

/**
 * Calls `onChange` once things settle after any of `files` is written, replaced (editors and
 * kubectl write a new file and rename it over the old one), created or deleted. It watches the
 * files' directories rather than the files, so a replaced or not-yet-existing file is still seen.
 * The debounce runs on wall time, not on an injected clock: it waits out bursts of file-system
 * writes (a truncate, then the write), which happen in real time whatever the clock.
 * Invariant: after `dispose()` no watcher is open, no timer is pending and `onChange` is never
 * called again.
 */
export class KubeconfigFileWatcher implements Disposable {
  private readonly watchers: fs.FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    files: readonly string[],
    private readonly onChange: () => void,
    /** Quiet time after the last change before `onChange` runs, in real milliseconds. */
    private readonly debounceMs = 250,
  ) {
    const byDir = new Map<string, Set<string>>();
    for (const file of files) {
      const dir = path.dirname(file);
      const names = byDir.get(dir) ?? new Set<string>();
      names.add(path.basename(file));
      byDir.set(dir, names);
    }
    for (const [dir, names] of byDir) {
      let watcher: fs.FSWatcher;
      try {
        watcher = fs.watch(dir, { persistent: false }, (_event, filename) => {
          // Some platforms do not report the name: treat that as a possible change.
          if (filename === null || names.has(filename.toString())) this.schedule();
        });
      } catch {
        continue; // the directory does not exist (yet): nothing to watch there
      }
      watcher.on('error', () => watcher.close());
      this.watchers.push(watcher);
    }
  }

  /** Number of directories being watched. */
  get size(): number {
    return this.watchers.length;
  }

  private schedule(): void {
    if (this.disposed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.disposed) this.onChange();
    }, this.debounceMs);
    this.timer.unref();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.watchers.splice(0)) w.close();
  }
}

/**
 * While following is on, one KubeconfigFileWatcher on the files a kubeconfig path names,
 * replaced when the path names other files. Invariant: when following is off, no watcher is open.
 */
export class KubeconfigFollower {
  private watcher: KubeconfigFileWatcher | undefined;
  private watchedFiles = '';
  private following = false;

  constructor(
    private readonly onChange: () => void,
    private readonly debounceMs?: number,
  ) {}

  /** Starts following: watches the files `kubeconfigPath` names (KUBECONFIG-style, or the default). */
  follow(kubeconfigPath: string | undefined): void {
    this.following = true;
    this.arm(kubeconfigPath);
  }

  /** While following, makes sure the files `kubeconfigPath` names now are the ones watched. */
  arm(kubeconfigPath: string | undefined): void {
    if (!this.following) return;
    const files = kubeconfigCandidates({ path: kubeconfigPath }).files;
    const key = files.join('\n');
    if (this.watcher && key === this.watchedFiles) return;
    this.unwatch();
    this.watchedFiles = key;
    this.watcher = new KubeconfigFileWatcher(files, this.onChange, this.debounceMs);
  }

  /** Stops following and closes the watcher. */
  stop(): void {
    this.following = false;
    this.unwatch();
  }

  private unwatch(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    this.watchedFiles = '';
  }
}
