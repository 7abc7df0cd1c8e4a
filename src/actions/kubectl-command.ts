import type { ActionTarget } from './action-target';

/**
 * kubectl command lines, for the "Copy kubectl Command" of every action: what a user would type
 * to do the same, quoted for a POSIX shell. Invariant: every argument that a shell would split or
 * expand is single-quoted; nothing else is.
 */

/** A shell word: as is when it is plain, else single-quoted (`'` written as `'\''`). */
export function shellWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `kubectl ARGS… [-n NS] [--context CTX]`, the scope flags after the arguments as kubectl prints them in its docs. */
export function kubectl(target: Pick<ActionTarget, 'context' | 'namespace'> | undefined, ...args: string[]): string {
  const scope: string[] = [];
  if (target?.namespace) scope.push('-n', target.namespace);
  if (target?.context) scope.push('--context', target.context);
  return ['kubectl', ...args, ...scope].map((w, i) => (i === 0 ? w : shellWord(w))).join(' ');
}
