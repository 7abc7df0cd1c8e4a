import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commandText, confirmationText, helmArgs, helmEnvironment, type HelmOperation, type ReleaseTarget } from '../../helm';

/** The `helm` program on the PATH (as the extension host sees it), or undefined. */
export function helmOnPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = process.platform === 'win32' ? ['helm.exe', 'helm.cmd'] : ['helm'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * Runs helm operations after a modal confirmation naming context, release and revision; without
 * helm on the PATH, offers the command to copy. Every child process is killed on dispose. Only
 * the arguments (context, kubeconfig path, namespace, release) are shown or logged: no credential.
 */
export class HelmRunner implements vscode.Disposable {
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly log: (line: string) => void) {}

  async run(target: ReleaseTarget, op: HelmOperation, currentRevision: number): Promise<void> {
    const args = helmArgs(target, op);
    const text = commandText(args, target);
    const helm = helmOnPath();
    if (!helm) {
      const copy = 'Copy Command';
      const pick = await vscode.window.showWarningMessage(`helm is not on the PATH. ${confirmationText(target, op, currentRevision)}`, { modal: true, detail: `Run this yourself:\n${text}` }, copy);
      if (pick === copy) await vscode.env.clipboard.writeText(text);
      return;
    }
    const go = op.kind === 'rollback' ? 'Roll Back' : op.kind === 'uninstall' ? 'Uninstall' : 'Upgrade';
    const pick = await vscode.window.showWarningMessage(confirmationText(target, op, currentRevision), { modal: true, detail: text }, go);
    if (pick !== go) return;
    this.log(`helm: ${text}`);
    const result = await this.spawn(helm, args, helmEnvironment(target));
    if (result.code === 0) {
      void vscode.window.showInformationMessage(`helm ${op.kind} of ${target.release} on ${target.context} finished.`);
    } else {
      const detail = result.output.trim().split('\n').slice(-3).join(' ');
      void vscode.window.showErrorMessage(`helm ${op.kind} of ${target.release} on ${target.context} failed (exit ${result.code}): ${detail}`);
    }
  }

  private spawn(program: string, args: string[], extraEnv: Record<string, string | undefined>): Promise<{ code: number; output: string }> {
    const env = { ...process.env };
    for (const [name, value] of Object.entries(extraEnv)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    return new Promise((resolve) => {
      const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
      this.children.add(child);
      let output = '';
      const keep = (b: Buffer) => (output = (output + b.toString('utf8')).slice(-4000));
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.on('error', (err) => {
        this.children.delete(child);
        resolve({ code: -1, output: err.message });
      });
      child.on('close', (code) => {
        this.children.delete(child);
        resolve({ code: code ?? -1, output });
      });
    });
  }

  dispose(): void {
    for (const child of this.children) child.kill();
    this.children.clear();
  }
}
