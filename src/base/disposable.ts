/** Something that holds a resource until disposed. Disposing twice is harmless. */
export interface Disposable {
  dispose(): void;
}

/** A tiny typed event emitter whose subscriptions are Disposables. */
export class Emitter<T> {
  private listeners: ((value: T) => void)[] = [];

  on(listener: (value: T) => void): Disposable {
    this.listeners = [...this.listeners, listener];
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  /** Delivers to every listener; a throwing listener does not stop the others. */
  fire(value: T): void {
    for (const l of this.listeners) {
      try {
        l(value);
      } catch {
        // listeners are observers: their failures must never break the engine
      }
    }
  }

  get size(): number {
    return this.listeners.length;
  }

  dispose(): void {
    this.listeners = [];
  }
}
