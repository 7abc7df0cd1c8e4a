/**
 * A request of an edit that was not sent because the object's origin no longer resolves to the
 * cluster it was read from (WRITES.md W01): the message names the object's context and server
 * and where the context points now.
 */
export class OriginRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OriginRefused';
  }
}
