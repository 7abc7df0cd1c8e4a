/** A connection's protocol as people say it: 'h2' is HTTP/2. */
export function protocolName(protocol: string): string {
  return protocol === 'h2' ? 'HTTP/2' : protocol === 'http/1.1' ? 'HTTP/1.1' : protocol;
}
