import { AbortedError, TransportError } from '../../base/api-error';
import { systemClock, type Clock } from '../../base/clock';
import { sleep } from '../../base/sleep';

/** A bearer token as obtained, with the time after which it must not be used without asking again. */
export interface ObtainedToken {
  token: string;
  /** Milliseconds since the epoch; undefined = no expiry known. */
  expiresAt?: number;
}

/** Why a token is being obtained: none yet or the one held went stale, or the server refused it (401). */
export type FetchReason = 'stale' | 'refused';

/** Where tokens come from: a token file, an OIDC refresh, a cloud `cmd-path` command. */
export interface TokenFetcher {
  /**
   * Obtains a token. `signal` aborts when the source is disposed. Rejects with a TransportError
   * coded ECREDENTIALS whose message names what failed and never a secret.
   */
  fetch(signal: AbortSignal, why: FetchReason): Promise<ObtainedToken>;
}

/** Bearer tokens of one user, shared by every request of its contexts. */
export interface TokenSource {
  /** The token to send now: the one held while it is fresh, else one obtained anew (single flight). */
  token(signal: AbortSignal): Promise<string>;
  /** After the server refused `used` (401): a new token, obtained once for everyone who used that one; `used` when no other can be had. */
  refresh(used: string, signal: AbortSignal): Promise<string>;
  dispose(): void;
}

interface Held {
  token: ObtainedToken;
  obtainedAt: number;
  /** Obtained by a fetch (not the kubeconfig's initial token). */
  fetched: boolean;
}

export interface CachingTokenSourceOptions {
  clock?: Clock;
  /** A token held this long (since it was obtained) is obtained again; undefined = until its expiry. */
  reuseForMs?: number;
  /** A token is stale this long before its expiry (client-go's 10 s for OIDC). */
  expiryLeewayMs?: number;
  /** At least this long between the starts of two fetches (a fetch asked for sooner waits); 0 = none. */
  minFetchSpacingMs?: number;
  /** When a fetch fails and a token is held, keep handing that one out (client-go's file token source). */
  keepOnFailure?: boolean;
  /** A token to start with (from the kubeconfig): used while fresh, replaced by a fetch once stale. */
  initial?: ObtainedToken;
}

/**
 * Caches the tokens of one user in front of a TokenFetcher.
 * Invariants:
 * - single flight: at most one fetch at a time; everyone who asks meanwhile gets its result;
 * - a refused token is replaced once: `refresh(used)` fetches only while `used` is still the
 *   token held, so N requests refused together cost one fetch (an OIDC refresh token is never
 *   spent twice);
 * - a token that was already stale when a fetch obtained it (an expiry in the past: clock skew)
 *   is used until the server refuses it, never fetched again in a loop;
 * - two fetches start at least `minFetchSpacingMs` apart;
 * - `dispose()` aborts the running fetch (kills its command, ends its request).
 */
export class CachingTokenSource implements TokenSource {
  private readonly clock: Clock;
  private held: Held | undefined;
  private flight: Promise<string> | undefined;
  private flightAbort: AbortController | undefined;
  private lastFetchAt = -Infinity;
  private disposed = false;
  /** How many fetches were started; for tests. */
  fetches = 0;

  constructor(
    private readonly fetcher: TokenFetcher,
    private readonly options: CachingTokenSourceOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    if (options.initial?.token) this.held = { token: options.initial, obtainedAt: this.clock.now(), fetched: false };
  }

  /** A fetch runs, or waits for its turn. */
  get busy(): boolean {
    return this.flight !== undefined;
  }

  token(signal: AbortSignal): Promise<string> {
    const held = this.held;
    if (held && (this.fresh(held, this.clock.now()) || (held.fetched && !this.fresh(held, held.obtainedAt)))) return Promise.resolve(held.token.token);
    return this.join(signal, 'stale');
  }

  refresh(used: string, signal: AbortSignal): Promise<string> {
    if (this.held && this.held.token.token !== used) return Promise.resolve(this.held.token.token);
    return this.join(signal, 'refused');
  }

  dispose(): void {
    this.disposed = true;
    this.flightAbort?.abort();
    this.held = undefined;
  }

  private fresh(held: Held, at: number): boolean {
    const { expiresAt } = held.token;
    if (expiresAt !== undefined && at >= expiresAt - (this.options.expiryLeewayMs ?? 0)) return false;
    return this.options.reuseForMs === undefined || at < held.obtainedAt + this.options.reuseForMs;
  }

  private join(signal: AbortSignal, why: 'stale' | 'refused'): Promise<string> {
    if (this.disposed) return Promise.reject(new AbortedError('credentials disposed'));
    if (signal.aborted) return Promise.reject(new AbortedError('aborted'));
    const flight = (this.flight ??= this.fly(why));
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => reject(new AbortedError('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      flight.then(
        (t) => {
          signal.removeEventListener('abort', onAbort);
          resolve(t);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(err instanceof Error ? err : new TransportError('the credentials could not be obtained', 'ECREDENTIALS'));
        },
      );
    });
  }

  private async fly(why: 'stale' | 'refused'): Promise<string> {
    const ctl = new AbortController();
    this.flightAbort = ctl;
    try {
      const wait = this.lastFetchAt + (this.options.minFetchSpacingMs ?? 0) - this.clock.now();
      if (wait > 0) await sleep(this.clock, wait, ctl.signal);
      this.fetches++;
      this.lastFetchAt = this.clock.now();
      let token: ObtainedToken;
      try {
        token = await this.fetcher.fetch(ctl.signal, why);
      } catch (err) {
        if (this.disposed || err instanceof AbortedError) throw err;
        if (this.options.keepOnFailure && this.held) return this.held.token.token;
        throw err;
      }
      if (this.disposed) throw new AbortedError('credentials disposed');
      this.held = { token, obtainedAt: this.clock.now(), fetched: true };
      return token.token;
    } finally {
      this.flight = undefined;
      this.flightAbort = undefined;
    }
  }
}
