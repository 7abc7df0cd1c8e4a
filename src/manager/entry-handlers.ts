import type { Disposable } from '../base';
import type { EntryHandler } from './watch-entry';

/**
 * The consumers of every informer's cache changes. Invariant: a throwing handler is isolated:
 * the others still run, and `onError` hears of it.
 */
export class EntryHandlerSet {
  private handlers: EntryHandler[] = [];

  add(handler: EntryHandler): Disposable {
    this.handlers = [...this.handlers, handler];
    return { dispose: () => (this.handlers = this.handlers.filter((h) => h !== handler)) };
  }

  dispatch(call: (h: EntryHandler) => void, onError: (err: unknown) => void): void {
    for (const h of this.handlers) {
      try {
        call(h);
      } catch (err) {
        onError(err);
      }
    }
  }
}
