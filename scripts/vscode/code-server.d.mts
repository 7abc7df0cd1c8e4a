// Types of code-server.mjs, for the TypeScript that imports it (test/e2e/, the sandbox).
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Browser } from 'playwright-core';

export const repoRoot: string;
export const CHROMIUM_ARGS: readonly string[];
export const DEFAULT_SETTINGS: Readonly<Record<string, unknown>>;
export const SHOWCASE_SETTINGS: Readonly<Record<string, unknown>>;
export const CODE_SERVER_OWN_ENV: readonly string[];

export interface CodeServerPaths {
  home: string;
  node: string;
  entry: string;
}

export function findOnPath(name: string): string | undefined;
export function chromiumPath(): string;
export function codeServerPaths(): CodeServerPaths;
export function prepareProfile(opts: { userDataDir: string; extensionsDir: string; settings?: Record<string, unknown> }): void;
export function codeServerEnv(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
export function installExtension(paths: CodeServerPaths, opts: { vsix: string; extensionsDir: string; userDataDir: string; configFile?: string }): string;
export function forEachLine(stream: Readable, onLine: (line: string) => void): void;

export interface StartCodeServerOptions {
  userDataDir: string;
  extensionsDir: string;
  configFile: string;
  env?: Record<string, string | undefined>;
  bindAddr?: string;
  smokeTestDriver?: boolean;
  extraArgs?: string[];
  onOutput?: (line: string) => void;
  log?: (message: string) => void;
}

export function startCodeServer(paths: CodeServerPaths, opts: StartCodeServerOptions): { child: ChildProcess; listening: Promise<string> };
export function stopProcessGroup(child: ChildProcess, name?: string, log?: (message: string) => void): Promise<void>;
export function launchChromium(opts?: { executablePath?: string; headless?: boolean; args?: string[] }): Promise<Browser>;
export function toRemoteUri(authority: string, fsPath: string): string;
