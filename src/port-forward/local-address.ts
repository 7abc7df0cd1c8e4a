/** The local address a forward listens on, as people read it: a wildcard bind reads as localhost; IPv6 in brackets. */
export function localAddressOf(status: { readonly localAddress: string; readonly localPort: number }): string {
  const host = status.localAddress === '0.0.0.0' || status.localAddress === '::' ? 'localhost' : status.localAddress.includes(':') ? `[${status.localAddress}]` : status.localAddress;
  return `${host}:${status.localPort}`;
}
