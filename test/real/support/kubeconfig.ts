/**
 * Kubeconfig text for the real control plane: one cluster (the server, or a relay in front of
 * it), one user, one context. Scalars are JSON-quoted (valid YAML), so any token or path
 * round-trips through client-node's loader and kubectl.
 */
import * as path from 'node:path';
import type { ExecPluginFixture } from '../../support/exec-plugin/exec-plugin-fixture';

/** An exec credential plugin as a kubeconfig names it. */
export interface ExecUser {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  apiVersion?: string;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

/** How the user authenticates: a bearer token, a token file (read by the client), or an exec plugin. */
export type KubeconfigUser = { token: string } | { tokenFile: string } | { exec: ExecUser };

export interface KubeconfigOptions {
  /** https://127.0.0.1:PORT of the server or of a relay in front of it. */
  server: string;
  caPem: string;
  user: KubeconfigUser;
  /** The context's namespace. */
  namespace?: string;
  /** Default `real`: cluster, user and context are named after it. */
  name?: string;
}

const q = (s: string): string => JSON.stringify(s);

const EXEC_PLUGIN_SCRIPT = path.join(import.meta.dirname, '..', '..', 'support', 'exec-plugin', 'exec-plugin.mjs');

/** The user of test/support/exec-plugin's fixture: the plugin hands out whatever token the test set there. */
export function execPluginUser(fixture: ExecPluginFixture): { exec: ExecUser } {
  return { exec: { command: process.execPath, args: [EXEC_PLUGIN_SCRIPT, fixture.dir] } };
}

export function renderKubeconfig(o: KubeconfigOptions): string {
  const name = o.name ?? 'real';
  const user: string[] = [];
  if ('token' in o.user) user.push(`    token: ${q(o.user.token)}`);
  else if ('tokenFile' in o.user) user.push(`    tokenFile: ${q(o.user.tokenFile)}`);
  else {
    const e = o.user.exec;
    user.push('    exec:', `      apiVersion: ${q(e.apiVersion ?? 'client.authentication.k8s.io/v1')}`, `      command: ${q(e.command)}`);
    if (e.args?.length) user.push(`      args: [${e.args.map(q).join(', ')}]`);
    if (e.env && Object.keys(e.env).length > 0) user.push('      env:', ...Object.entries(e.env).flatMap(([k, v]) => [`      - name: ${q(k)}`, `        value: ${q(v)}`]));
    user.push(`      interactiveMode: ${q(e.interactiveMode ?? 'Never')}`, '      provideClusterInfo: false');
  }
  const context = [`    cluster: ${q(name)}`, `    user: ${q(name)}`];
  if (o.namespace) context.push(`    namespace: ${q(o.namespace)}`);
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${q(name)}`,
    '  cluster:',
    `    server: ${q(o.server)}`,
    `    certificate-authority-data: ${q(Buffer.from(o.caPem).toString('base64'))}`,
    'users:',
    `- name: ${q(name)}`,
    '  user:',
    ...user,
    'contexts:',
    `- name: ${q(name)}`,
    '  context:',
    ...context,
    `current-context: ${q(name)}`,
    '',
  ].join('\n');
}
