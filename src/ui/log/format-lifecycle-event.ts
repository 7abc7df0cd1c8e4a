import { protocolName } from '../protocol-name';
import type { InformerPhase, InformerState, LifecycleEvent } from '../../informer';
import { oneLine, prefixed, type LogLevel, type LogLine } from './log-line';
import { clockTime } from '../../base/time-format';
import { formatDuration } from './time-text';

/**
 * What the log writer knows about an entry's recent past, so that one event can be put in
 * context. Both fields are optional: without them every event still formats, only the
 * "watching again" and repeat-demotion refinements are lost.
 */
export interface EventContext {
  /** The entry's state before this event. */
  previous?: InformerState;
  /** When the entry's current run of failures began (unset while healthy). */
  troubleSince?: number;
  /** The last failure state of the current run (unset while healthy). */
  lastFailure?: InformerState;
  /** The cause of the last backoff of the current run. */
  lastCause?: string;
  /** How many failures the current run has seen before this event. */
  failures?: number;
}

/** Phases that mean a failed attempt and a wait before the next one. */
export function isFailurePhase(phase: InformerPhase): boolean {
  return phase === 'backing-off' || phase === 'unreachable' || phase === 'unauthorized' || phase === 'credentials-failed' || phase === 'forbidden' || phase === 'not-found';
}

/**
 * One lifecycle event as one log line, prefixed with the watch's label.
 *
 * Levels: `trace` for bookmarks and list pages (many, routine); `debug` for state changes that an
 * event line of their own already reports; `info` for the normal life of a watch (lists, watches
 * opened and closed at their timeout, restarts, recovery); `warn` for what the informer heals by
 * itself (expiry, backoff, dropped watches, protocol warnings, unreachable); `error` for what needs
 * a person (unauthorized, forbidden, not found, a handler that threw).
 *
 * Inside a run of failures (`context.troubleSince` set), what merely repeats is demoted so that a
 * watch failing for an hour does not flood the log: the same failure state again is `debug`
 * ("still unauthorized"), the relist and list that retry it are `debug`, and a backoff with the
 * same cause as the last one is `info`.
 *
 * Every message taken from outside (server messages, error texts) is flattened to one line.
 */
export function formatLifecycleEvent(label: string, event: LifecycleEvent, context: EventContext = {}): LogLine {
  const line = (level: LogLevel, message: string): LogLine => ({ level, message: prefixed(label, message) });
  switch (event.type) {
    case 'state':
      return formatState(label, event.state, context);
    case 'list-started':
      if (context.troubleSince !== undefined) return line('debug', `${event.relist ? 'relist' : 'list'} started again`);
      return event.relist
        ? line('info', `${event.streaming ? 'streaming ' : ''}relist started${event.resourceVersion ? ` (last resourceVersion ${event.resourceVersion})` : ''}`)
        : line('info', event.streaming ? 'streaming list started (WatchList: one request lists, then watches)' : 'list started');
    case 'list-page':
      return line('trace', `list page ${event.page}: ${count(event.items, 'item')}`);
    case 'list-done':
      return line(
        'info',
        `list finished: ${count(event.items, 'object')} in ${event.streaming ? 'one streaming request' : count(event.pages, 'page')}, resourceVersion ${event.resourceVersion}, ${formatDuration(event.durationMs)}`,
      );
    case 'list-restarted':
      return line('warn', `list restarted: ${oneLine(event.reason)}`);
    case 'streaming-list-fallback':
      return line('warn', `streaming list unavailable, using paginated lists for this API group/version: ${oneLine(event.reason)}`);
    case 'synced':
      return line('debug', `synced: ${count(event.objects, 'object')} at resourceVersion ${event.resourceVersion}`);
    case 'watch-opened':
      return line('info', `watch opened at resourceVersion ${event.resourceVersion || '(none)'}, timeoutSeconds ${event.timeoutSeconds}${event.protocol ? ` over ${protocolName(event.protocol)}` : ''}`);
    case 'watch-closed': {
      const stats = `after ${formatDuration(event.durationMs)}, ${count(event.events, 'event')}${event.resourceVersion ? `, at resourceVersion ${event.resourceVersion}` : ''}`;
      switch (event.cause) {
        case 'ended':
          return line('info', `watch closed by the server ${stats}`);
        case 'ended-early':
          return line('info', `watch closed early by the server ${stats}; re-watching shortly`);
        case 'stopped':
          return line('debug', `watch closed by a stop or restart ${stats}`);
        case 'failed':
          return line('warn', `watch closed ${stats}: ${oneLine(event.reason)}`);
      }
    }
    case 'bookmark':
      return line('trace', `bookmark: resourceVersion ${event.resourceVersion}`);
    case 'expired':
      return line('warn', `expired: resourceVersion ${event.resourceVersion ?? '(none)'} is too old for the server: ${oneLine(event.message)}`);
    case 'relist':
      return line(context.lastFailure?.reason === event.reason ? 'debug' : 'info', `relisting: ${oneLine(event.reason)}`);
    case 'backoff':
      return line(context.troubleSince !== undefined && context.lastCause === event.cause ? 'info' : 'warn', `backing off: attempt ${event.attempt}, next try in ${formatDuration(event.delayMs)} at ${clockTime(event.retryAt)}: ${oneLine(event.cause)}`);
    case 'warning':
      return line('warn', `warning${event.eventType ? ` (${event.eventType} event)` : ''}: ${oneLine(event.message)}`);
    case 'handler-error':
      return line('error', `handler "${oneLine(event.handler, 80)}" threw: ${oneLine(event.message)}`);
    case 'restart': {
      // Callers word reasons either way: "restart requested by the … command" or "credentials changed".
      const reason = oneLine(event.reason);
      return line('info', /^restart requested\b/i.test(reason) ? reason : `restart requested: ${reason}`);
    }
    case 'stopped':
      return line('info', 'stopped');
    case 'resumed':
      return line('info', `resumed after ${Math.round(event.awayMs / 1000)} s: verifying the cluster's connections`);
    case 'reachability':
      return event.reachable ? line('info', `the cluster is reachable again: ${oneLine(event.detail)}`) : line('warn', `the cluster is unreachable: ${oneLine(event.detail)}`);
    default:
      return unknownEvent(label, event);
  }
}

/**
 * A state change. The failure states that a person must act on are the headline of a failure
 * (`error`); `unreachable` is a `warn`; the same failure repeating (same phase, same reason) is
 * demoted to `debug`, since its backoff line already says another attempt failed. `watching`
 * after failures is logged at `info` as a recovery; other transitions are `debug`.
 */
function formatState(label: string, state: InformerState, context: EventContext): LogLine {
  const reason = state.reason ? oneLine(state.reason) : '';
  const line = (level: LogLevel, message: string): LogLine => ({ level, message: prefixed(label, message) });
  const last = context.lastFailure;
  const repeat = context.troubleSince !== undefined && last !== undefined && last.phase === state.phase && (last.reason ?? '') === (state.reason ?? '');
  const retry = state.nextRetryAt !== undefined ? ` (next attempt at ${clockTime(state.nextRetryAt)})` : '';
  switch (state.phase) {
    case 'connecting':
      return line('debug', `connecting${reason ? `: ${reason}` : ''}`);
    case 'listing':
      return line('debug', `listing${reason ? `: ${reason}` : ''}`);
    case 'watching':
      if (context.troubleSince !== undefined) {
        const failures = context.failures ?? 0;
        return line('info', `watching again after ${formatDuration(state.since - context.troubleSince)} of failures${failures > 0 ? ` (${count(failures, 'failed attempt')})` : ''}`);
      }
      return line('debug', 'watching');
    case 'backing-off':
      return line('debug', `backing off${reason ? `: ${reason}` : ''}${retry}`);
    case 'unreachable':
      return line(repeat ? 'debug' : 'warn', `${repeat ? 'still ' : ''}unreachable${reason ? `: ${reason}` : ''}${retry}`);
    case 'unauthorized':
    case 'credentials-failed':
    case 'forbidden':
    case 'not-found': {
      const name = state.phase === 'not-found' ? 'not found' : state.phase === 'credentials-failed' ? 'credentials failed' : state.phase;
      return line(repeat ? 'debug' : 'error', `${repeat ? 'still ' : ''}${name}${reason ? `: ${reason}` : ''}${retry}`);
    }
    case 'stopped':
      return line('debug', `state stopped${reason ? `: ${reason}` : ''}`);
    default:
      return unknownPhase(label, state.phase);
  }
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/** An event type this formatter does not know yet (the compiler flags it): one debug line, never a crash. */
function unknownEvent(label: string, event: never): LogLine {
  const type = (event as { type?: unknown }).type;
  return { level: 'debug', message: prefixed(label, `lifecycle event ${oneLine(String(type), 80)}`) };
}

/** A phase this formatter does not know yet (the compiler flags it). */
function unknownPhase(label: string, phase: never): LogLine {
  return { level: 'debug', message: prefixed(label, `state ${oneLine(String(phase), 80)}`) };
}
