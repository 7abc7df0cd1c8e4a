import type { EditWrite } from '../../edit';

/**
 * One line of the watch log per write an edit makes: where, what, and how it ended. Never a
 * body or a value. For example
 * `write: kind-dev · update ConfigMap shop/web-config · ok, rv 48213` or
 * `write: kind-dev · apply (dry run) Deployment shop/web · 409 Conflict`.
 */
export function editWriteLine(write: EditWrite, context: string): string {
  const what = `${write.target.type.kind} ${write.target.namespace ? `${write.target.namespace}/` : ''}${write.target.name}`;
  const verb = `${write.verb}${write.dryRun ? ' (dry run)' : ''}`;
  const result = write.result === 'ok' ? `ok${write.resourceVersion ? `, rv ${write.resourceVersion}` : ''}` : write.result;
  return `write: ${context || 'current context'} · ${verb} ${what} · ${result}`;
}
