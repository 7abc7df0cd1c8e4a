import * as fs from 'node:fs';

/**
 * What Kube Watch watches in the sandbox's workspace (`kubeWatch.resources` of its settings,
 * comments allowed): the watches its status bar counts, which the fault announcements count too.
 */
export function workspaceResources(file: string): string[] {
  try {
    const text = fs.readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const resources = (JSON.parse(text) as Record<string, unknown>)['kubeWatch.resources'];
    return Array.isArray(resources) ? resources.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}
