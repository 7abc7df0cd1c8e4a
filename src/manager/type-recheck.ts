import { UnknownResourceError } from '../cluster/discovery';
import { resolveWithRetry, type ResolveWithRetryOptions } from '../cluster/resolve-with-retry';
import { sleep } from '../base/sleep';
import { resourceTypeName, type KubeTransport, type ResourceType } from '../informer';

/** What discovery says now of a type being watched: served (maybe in another version, F39), or gone (F30). */
export type TypeVerdict = { readonly served: ResourceType } | { readonly gone: string };

/** Why a resolved type is asked about again. */
export type RecheckTrigger = 'not-found' | 'definition' | 'restart';

/** Default of `RecheckOptions.confirmGoneMs`. */
export const CONFIRM_GONE_MS = 10_000;

export interface RecheckOptions extends Omit<ResolveWithRetryOptions, 'unknownIsFinal' | 'onWaiting'> {
  /** After discovery first lists the type nowhere, how long before it is asked again. */
  confirmGoneMs: number;
  /** Discovery listed the type nowhere once; it is asked again after `confirmGoneMs`. */
  onFirstGone?(reason: string): void;
}

/**
 * Asks discovery again what a watched type is now: what `spelling` resolves to, or, when the
 * spelling named a version no longer served, the same group and resource in the version served
 * now. A type listed nowhere is asked about once more after `confirmGoneMs` before it counts as
 * gone: an API server replica whose CRD informer has not synced answers 404 for the type and
 * leaves it out of its discovery alike, for a few seconds (F40). Network failures and refusals
 * are retried as resolution retries them; aborting `signal` rejects with AbortedError.
 */
export async function recheckType(transport: KubeTransport, spelling: string, current: ResourceType, o: RecheckOptions): Promise<TypeVerdict> {
  const first = await resolveServed(transport, spelling, current, o);
  if (first) return { served: first };
  const name = resourceTypeName(current);
  o.onFirstGone?.(`discovery lists ${name} in no version: asking again in ${Math.round(o.confirmGoneMs / 1000)} s before removing its objects`);
  await sleep(o.clock, o.confirmGoneMs, o.signal);
  const second = await resolveServed(transport, spelling, current, o);
  return second ? { served: second } : { gone: `the server no longer serves ${name} in any version` };
}

/** Whether two resolutions name the same type in the same version. */
export function sameType(a: ResourceType, b: ResourceType): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource && a.kind === b.kind && a.namespaced === b.namespaced;
}

/** Whether `next` is `current` in another version: the same objects, so a watch may move without deleting them. */
export function sameObjects(current: ResourceType, next: ResourceType): boolean {
  return current.group === next.group && current.resource === next.resource && current.namespaced === next.namespaced;
}

async function resolveServed(transport: KubeTransport, spelling: string, current: ResourceType, o: RecheckOptions): Promise<ResourceType | undefined> {
  const qualified = resourceTypeName(current);
  const spellings = spelling.trim().toLowerCase() === qualified ? [spelling] : [spelling, qualified];
  for (const s of spellings) {
    try {
      return await resolveWithRetry(transport, s, { ...o, unknownIsFinal: true });
    } catch (err) {
      if (!(err instanceof UnknownResourceError)) throw err;
    }
  }
  return undefined;
}
