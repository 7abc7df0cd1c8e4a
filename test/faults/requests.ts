import type { RequestRecord } from '../support/apiserver';
import type { FaultContext } from './scenario';

/**
 * The requests of one resource by what they do, whatever the server generation: 'list' is a
 * LIST or a streaming list the server served (a WatchList refused with 422 lists nothing);
 * 'watch' is a plain watch.
 */
export function requestsOf(ctx: FaultContext, verb: 'list' | 'watch', resource = 'configmaps'): RequestRecord[] {
  return ctx.server.requests.filter((r) => r.resource === resource && (r.verb === verb || (verb === 'list' && isServedStreamingList(r))));
}

/** Requests that open a watch: plain watches and served streaming lists (which go on as the watch). */
export function watchesOf(ctx: FaultContext, resource = 'configmaps'): RequestRecord[] {
  return ctx.server.requests.filter((r) => r.resource === resource && (r.verb === 'watch' || isServedStreamingList(r)));
}

/** A streaming list (WatchList) request the server did not refuse as invalid. */
export function isServedStreamingList(r: RequestRecord): boolean {
  return r.verb === 'watchlist' && r.status !== 422;
}
