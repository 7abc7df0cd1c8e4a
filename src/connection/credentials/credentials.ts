/**
 * What one request presents to a cluster: headers (a bearer token) and TLS material (the CA,
 * a client certificate). A connection is built for one `tlsKey`; credentials whose `tlsKey`
 * differs (a rotated client certificate) need a new connection for new streams.
 * Invariant: nothing in here is ever logged, shown or put into an error message.
 */
export interface TlsMaterial {
  ca?: string | Buffer | (string | Buffer)[];
  cert?: string | Buffer;
  key?: string | Buffer;
  pfx?: string | Buffer;
  passphrase?: string;
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface Credentials {
  /** Request headers to add (for example Authorization). */
  readonly headers: Readonly<Record<string, string>>;
  readonly tls: TlsMaterial;
  /** Changes whenever the TLS identity (CA, client certificate) changes; safe to log. */
  readonly tlsKey: string;
  /** Counts how often the credentials were obtained anew; a refresh yields a higher one. */
  readonly generation: number;
}

/**
 * The credentials of one kubeconfig user towards one cluster, shared by every request of the
 * contexts that use them. Implementations run at most one credential process at a time
 * (single flight), and `dispose()` kills whatever still runs.
 */
export interface CredentialProvider {
  /** The current credentials, obtained on first use. Rejects with a TransportError coded `ECREDENTIALS` whose message carries no secret. */
  get(signal: AbortSignal): Promise<Credentials>;
  /**
   * After the server refused `used` (401): obtain fresh credentials once for everyone that saw
   * the same generation, and resolve with them (or with the current ones when nothing can be
   * refreshed, in which case `generation` does not change).
   */
  refresh(used: Credentials, signal: AbortSignal): Promise<Credentials>;
  dispose(): void;
}
