import { execFile } from 'node:child_process';
import * as path from 'node:path';

/**
 * A kustomization folder rendered as `kubectl kustomize DIR` renders it, for its documents to be
 * compared like a file's. kubectl is looked for on the PATH only; without it, one line says so.
 * The render runs outside the editor's way (a child process, bounded by a timeout), never while
 * the user types in the editor: only on open and on save.
 */

export type KustomizeRender = { kind: 'rendered'; text: string } | { kind: 'problem'; message: string };

/** Runs a command: its output, or why it could not run (ENOENT: not found). */
export type CommandRunner = (command: string, args: readonly string[], timeoutMs: number) => Promise<{ code: number; stdout: string; stderr: string; notFound?: boolean }>;

export const runCommand: CommandRunner = (command, args, timeoutMs) =>
  new Promise((resolve) => {
    execFile(command, [...args], { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr), ...((err as { code?: unknown } | null)?.code === 'ENOENT' ? { notFound: true } : {}) });
    });
  });

/** True for a file kustomize reads as a kustomization. */
export function isKustomization(file: string): boolean {
  return /^(kustomization\.ya?ml|Kustomization)$/.test(path.basename(file));
}

/** Renders the kustomization in `dir` (see the file comment). */
export async function renderKustomization(dir: string, run: CommandRunner = runCommand, timeoutMs = 30_000): Promise<KustomizeRender> {
  const out = await run('kubectl', ['kustomize', dir], timeoutMs);
  if (out.notFound) return { kind: 'problem', message: 'kubectl is not on the PATH: this kustomization is not rendered, so its objects are not compared (install kubectl to see them).' };
  if (out.code !== 0) {
    const first = out.stderr.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? `kubectl kustomize exited with ${out.code}`;
    return { kind: 'problem', message: `kubectl kustomize failed: ${first.replace(/^error: /, '')}` };
  }
  return { kind: 'rendered', text: out.stdout };
}

/** The `namespace:` a kustomization sets for its resources, from its text; undefined when none. */
export function kustomizationNamespace(text: string): string | undefined {
  return /^namespace:\s*["']?([a-z0-9]([-a-z0-9]*[a-z0-9])?)["']?\s*(#.*)?$/m.exec(text)?.[1];
}
