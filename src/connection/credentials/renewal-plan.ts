/**
 * When a credential with an expiry is renewed ahead of it, planned from the credential's own
 * lifetime rather than from when its plugin last ran.
 *
 * Why: a plugin that caches its token (kubelogin, "cache the token in a file" wrappers) hands
 * out the same token and the same `expirationTimestamp` until it expires. Planned from each run
 * (80% of what is left), renewals crowd together towards the expiry (48 min, +9.6 min, +1.9 min,
 * +23 s, then back to back). Planned from the credential, a run that returns the same
 * credential teaches that the plugin caches, and the next run waits for the expiry.
 */

/** No credential process of one user (exec plugin, `cmd-path`, OIDC refresh) starts sooner than this after the previous one. */
export const MIN_RUN_SPACING_MS = 10_000;

/** A credential is renewed at most this long before its expiry. */
export const MAX_RENEW_AHEAD_MS = 5 * 60_000;

/** Of a credential's lifetime as we know it (from first sight to expiry), this share is left when it is renewed. */
export const RENEW_AHEAD_SHARE = 0.2;

export interface RenewalInputs {
  now: number;
  /** When the last plugin run started. */
  lastRunAt: number;
  /** When this credential (by its content) was first handed to us; its issue time is unknown. */
  firstSeenAt: number;
  /** Its expiry; undefined = none announced. */
  expiresAt: number | undefined;
  /** An earlier run ahead of an expiry handed back the credential it already had: asking early is in vain. */
  pluginCaches: boolean;
}

/**
 * The time to run the plugin again, or undefined for none: a credential without an expiry, or
 * with one already past (clock skew, a plugin bug), is used until the server refuses it (401).
 * Otherwise: a fifth of its known lifetime ahead of its expiry (at most 5 min; for a
 * credential seen for the first time, its lifetime as far as we know starts now, so the plan
 * hangs on its expiry), at its expiry for a plugin that caches, and never sooner than
 * MIN_RUN_SPACING_MS after the last run. Invariant: the result is never before
 * `lastRunAt + MIN_RUN_SPACING_MS`, so no plan loops.
 */
export function planRenewal(i: RenewalInputs): number | undefined {
  if (i.expiresAt === undefined || i.expiresAt <= i.now) return undefined;
  const ahead = i.pluginCaches ? 0 : Math.min(RENEW_AHEAD_SHARE * Math.max(0, i.expiresAt - i.firstSeenAt), MAX_RENEW_AHEAD_MS);
  return Math.max(i.expiresAt - ahead, i.lastRunAt + MIN_RUN_SPACING_MS);
}

/**
 * Whether a credential may be handed out as it is: before its expiry, or, past it, when the
 * plugin already ran since the expiry and still returned it (then it is used until a 401,
 * which asks the plugin again).
 */
export function usableAsIs(expiresAt: number | undefined, lastRunAt: number, now: number): boolean {
  return expiresAt === undefined || now < expiresAt || lastRunAt >= expiresAt;
}
