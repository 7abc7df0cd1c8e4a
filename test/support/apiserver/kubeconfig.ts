/**
 * Kubeconfig text for the fake server: one cluster, one token user, one context, selected as
 * current-context. Emitted as YAML whose scalars are JSON-quoted (valid YAML double-quoted
 * strings), so any name or token round-trips through client-node's YAML loader and kubectl.
 */
import type { KubeconfigOptions } from './types';

export interface KubeconfigTarget {
  url: string;
  /** Undefined for plain HTTP. */
  caPem?: string;
  defaultToken: string;
}

const q = (s: string): string => JSON.stringify(s);

export function renderKubeconfig(target: KubeconfigTarget, opts: KubeconfigOptions = {}): string {
  const cluster = opts.cluster ?? 'fake-cluster';
  const user = opts.user ?? 'fake-user';
  const context = opts.context ?? 'fake-context';
  const token = opts.token ?? target.defaultToken;
  const clusterLines = [`    server: ${q(target.url)}`];
  if (opts.insecureSkipTlsVerify) clusterLines.push('    insecure-skip-tls-verify: true');
  else if (target.caPem) clusterLines.push(`    certificate-authority-data: ${q(Buffer.from(target.caPem).toString('base64'))}`);
  const contextLines = [`    cluster: ${q(cluster)}`, `    user: ${q(user)}`];
  if (opts.namespace) contextLines.push(`    namespace: ${q(opts.namespace)}`);
  return [
    'apiVersion: v1',
    'kind: Config',
    'preferences: {}',
    'clusters:',
    `- name: ${q(cluster)}`,
    '  cluster:',
    ...clusterLines,
    'users:',
    `- name: ${q(user)}`,
    '  user:',
    `    token: ${q(token)}`,
    'contexts:',
    `- name: ${q(context)}`,
    '  context:',
    ...contextLines,
    `current-context: ${q(context)}`,
    '',
  ].join('\n');
}
