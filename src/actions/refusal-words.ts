import { AbortedError, ApiError, TransportError, describeError } from '../base';
import { accessQueryText, type AccessQuery } from '../cluster/access-review';

/**
 * A failed write in words a person reads: which verb on which resource was refused and by whom,
 * never a stack trace. The server's own message follows where it adds something.
 */
export function refusalWords(err: unknown, access: AccessQuery, user?: string): string {
  if (err instanceof AbortedError) return 'Cancelled before the server answered.';
  if (err instanceof TransportError) {
    if (err.code === 'ETIMEDOUT') return `The cluster did not answer in time: ${err.message}.`;
    return `The cluster could not be reached (${err.message}); nothing was written.`;
  }
  if (!(err instanceof ApiError)) return describeError(err);
  const what = accessQueryText(access);
  switch (err.code) {
    case 401:
      return 'The server did not accept the credentials of this context (401 Unauthorized); nothing was written.';
    case 403: {
      const who = /User "([^"]+)"/.exec(err.message)?.[1] ?? user;
      return `Not allowed: ${who ? `user "${who}"` : 'you'} may not ${what}. The cluster's access rules (RBAC) refused it; nothing was written.`;
    }
    case 404:
      return `Not found: the object is no longer on the server (${err.message}).`;
    case 409:
      return `Conflict: the object changed or was re-created meanwhile, so nothing was written (${err.message}).`;
    case 422:
      return `The server found the change invalid: ${err.message}`;
    case 429: {
      const budget = err.status.details?.causes?.find((c) => c.reason === 'DisruptionBudget')?.message;
      if (budget) return `Blocked by a PodDisruptionBudget: ${budget}.`;
      return `The server is busy (429 Too Many Requests): ${err.message}`;
    }
    default:
      return `The server refused it (${err.code}${err.reason ? ` ${err.reason}` : ''}): ${err.message}`;
  }
}
