/**
 * Runs the manager's mutating operations one at a time, in call order. Each operation's own
 * promise settles with it; a failing operation never stops the ones queued after it.
 */
export class OperationQueue {
  private tail: Promise<void> = Promise.resolve();

  run(op: () => Promise<void>): Promise<void> {
    const run = this.tail.then(op);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
