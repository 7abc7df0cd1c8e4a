/**
 * code-server with the packaged extension installed, and a Chromium page on its workbench: what
 * the browser tests drive. One per test run (starting code-server and the workbench takes tens of
 * seconds on these machines); the scenarios share it and each brings the cluster to a known state.
 */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  SHOWCASE_SETTINGS,
  codeServerPaths,
  installExtension,
  launchChromium,
  prepareProfile,
  startCodeServer,
  stopProcessGroup,
} from '../../../scripts/vscode/code-server.mjs';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

/** The .vsix `npm run package` writes (E2E_VSIX overrides). */
export function defaultVsixPath(): string {
  if (process.env.E2E_VSIX) return path.resolve(process.env.E2E_VSIX);
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  return path.join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);
}

export interface WorkbenchOptions {
  vsix: string;
  /** For the extension host (KUBECONFIG). */
  env: Record<string, string>;
  /**
   * A folder put first on the extension host's PATH (a stub CLI's). The server then skips
   * resolving the login shell's environment (`VSCODE_CLI=1`, as when started from a terminal),
   * since a login shell's profile sets PATH anew and the folder would be lost.
   */
  pathFirst?: string;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /** code-server's and the page's diagnostics; default stderr when E2E_VERBOSE=1, else kept for failures only. */
  log?: (line: string) => void;
  viewport?: { width: number; height: number };
  /** Files written into the workspace folder before it is opened (relative path → text). */
  workspaceFiles?: Record<string, string>;
}

export class Workbench {
  /** The last lines of code-server's output and the page's errors, for a failure's message. */
  readonly diagnostics: string[] = [];

  private constructor(
    readonly page: Page,
    readonly baseUrl: string,
    readonly workspace: string,
    readonly userDataDir: string,
    private readonly browser: Browser,
    private readonly codeServer: ChildProcess,
    private readonly scratch: string,
  ) {}

  static async start(opts: WorkbenchOptions): Promise<Workbench> {
    if (!fs.existsSync(opts.vsix)) throw new Error(`${opts.vsix} is missing: run npm run package`);
    const verbose = process.env.E2E_VERBOSE === '1';
    const diagnostics: string[] = [];
    const note = (line: string) => {
      diagnostics.push(line);
      if (diagnostics.length > 200) diagnostics.shift();
      if (verbose) process.stderr.write(`${line}\n`);
      opts.log?.(line);
    };
    const paths = codeServerPaths();
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-e2e-'));
    const userDataDir = path.join(scratch, 'user-data');
    const extensionsDir = path.join(scratch, 'extensions');
    const workspace = path.join(scratch, 'workspace');
    const configFile = path.join(scratch, 'code-server.yaml');
    fs.mkdirSync(workspace, { recursive: true });
    for (const [file, text] of Object.entries(opts.workspaceFiles ?? {})) {
      fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
      fs.writeFileSync(path.join(workspace, file), text);
    }
    prepareProfile({
      userDataDir,
      extensionsDir,
      settings: {
        ...SHOWCASE_SETTINGS,
        'workbench.activityBar.location': 'default',
        ...opts.settings,
      },
    });
    note(`[e2e] installing ${opts.vsix}`);
    note(installExtension(paths, { vsix: opts.vsix, extensionsDir, userDataDir, configFile }));

    const env = opts.pathFirst ? { ...opts.env, PATH: [opts.pathFirst, opts.env.PATH ?? process.env.PATH ?? ''].join(path.delimiter), VSCODE_CLI: '1' } : opts.env;
    const { child, listening } = startCodeServer(paths, {
      userDataDir,
      extensionsDir,
      configFile,
      env,
      onOutput: (line) => note(`[code-server] ${line}`),
      log: (line) => note(`[e2e] ${line}`),
    });
    let browser: Browser | undefined;
    try {
      const baseUrl = await listening;
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 860 } });
      const page = await context.newPage();
      page.on('pageerror', (error) => note(`[page error] ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') note(`[page console error] ${message.text()}`);
      });
      const bench = new Workbench(page, baseUrl, workspace, userDataDir, browser, child, scratch);
      bench.diagnostics.push(...diagnostics);
      const url = `${baseUrl}/?folder=${encodeURIComponent(workspace)}`;
      note(`[e2e] opening ${url}`);
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      // The workbench is up when its activity bar and status bar are drawn.
      await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 120_000 });
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
      return bench;
    } catch (error) {
      await browser?.close().catch(() => {});
      await stopProcessGroup(child, 'code-server');
      fs.rmSync(scratch, { recursive: true, force: true });
      throw new Error(`${(error as Error).message}\n--- last output ---\n${diagnostics.slice(-40).join('\n')}`);
    }
  }

  /**
   * Reloads the page (as Developer: Reload Window does: a new workbench and extension host on the
   * same user data and workspace) and waits for the workbench to be drawn again.
   */
  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: 'domcontentloaded' });
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 120_000 });
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
  }

  /** code-server's process id (its extension host runs below it: support/processes.ts). */
  get codeServerPid(): number | undefined {
    return this.codeServer.pid;
  }

  /** A screenshot of the whole window. */
  async screenshot(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await this.page.screenshot({ path: file, timeout: 30_000 });
  }

  /** The text of the notification toasts on screen. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-toast').evaluateAll((toasts) => toasts.map((t) => ((t as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').trim()));
  }

  /** The extension host's log files (where an activation error would be). */
  extensionHostLogs(): string[] {
    const logs = path.join(this.userDataDir, 'logs');
    if (!fs.existsSync(logs)) return [];
    return fs
      .readdirSync(logs, { recursive: true, encoding: 'utf8' })
      .filter((f) => /exthost\d*\.log$|remoteexthost\.log$/.test(f))
      .map((f) => path.join(logs, f));
  }

  async stop(): Promise<void> {
    await this.browser.close().catch(() => {});
    await stopProcessGroup(this.codeServer, 'code-server');
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }
}
