import { dateTime } from '../base/time-format';
import { OriginRefused } from './origin-refused';
import { refusalOf, type Refusal } from './refusal';

/**
 * The refusals of a save that is never sent because it would land on the wrong object or the
 * wrong cluster (WRITES.md W01, W03, W04). Each says what happened and when, that nothing was
 * saved, and that the edit is kept; none is ever a stack trace.
 */

/** W01: the object's context now points elsewhere (`words` from the origin's resolution). */
export function wrongClusterRefusal(words: string): Refusal {
  return refusalOf(new OriginRefused(words), '', '', undefined, false);
}

/** W03: the watch showed the object deleted at `at`: a save would bring it back (or 404), so it is not sent. */
export function deletedRefusal(what: string, at: number | undefined): Refusal {
  const when = at ? ` at ${dateTime(at)}` : '';
  return {
    message: `${what} was deleted on the server${when}: nothing was saved. Your edit is kept; Save As New Object… re-creates it from your edit, Save As… keeps it in a file.`,
    problems: [],
    unreachable: false,
    gone: true,
    code: 404,
  };
}

/** W04: the object under that name now has another uid (deleted and created again, at `createdAt`). */
export function newObjectRefusal(what: string, createdAt: string | null | undefined): Refusal {
  const parsed = createdAt ? Date.parse(createdAt) : NaN;
  const when = Number.isNaN(parsed) ? '' : `, created at ${dateTime(parsed)}`;
  return {
    message: `${what} on the server is a new object (deleted and created again${when}): nothing was saved. Your edit is kept; Revert File opens the new object, Save As… keeps your edit in a file.`,
    problems: [],
    unreachable: false,
    gone: true,
    code: 0,
  };
}
