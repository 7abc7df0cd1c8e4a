/** `kind-dev/pods in default`; just `pods in default` while the context is unknown (no kubeconfig). */
export function labelOf(context: string, resource: string, namespace: string): string {
  return `${context ? `${context}/` : ''}${resource}${namespace ? ` in ${namespace}` : ''}`;
}

/** The first line of an error's message, or `fallback` when it has none. */
export function errorLine(err: unknown, fallback: string): string {
  const message = err instanceof Error ? err.message : '';
  return message.split('\n')[0] || fallback;
}
