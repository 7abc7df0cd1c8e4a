import type { Clock, TimerHandle } from '../base/clock';
import { Emitter, type Disposable } from '../base/disposable';
import type { ListPreview } from './list-preview';

/** Default least clock time between two announcements of a growing list preview. */
export const LIST_PROGRESS_MS = 500;

/**
 * The informer's current list preview and its announcements (see list-preview.ts).
 *
 * Invariants:
 * - Listeners hear of growth at most once per `intervalMs` of clock time (the first time on the
 *   next timer turn, never inside the list's own parsing), and once when an announced preview
 *   ends, with `undefined`: the list completed (after its objects reached the store) or failed.
 * - No timer is pending once the preview ended or `dispose()` ran.
 */
export class ListProgress implements Disposable {
  private current: ListPreview | undefined;
  private timer: TimerHandle | undefined;
  private lastAt = Number.NEGATIVE_INFINITY;
  /** Whether the current preview was announced (only then is its end). */
  private announced = false;
  private readonly emitter = new Emitter<ListPreview | undefined>();

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
  ) {}

  /** The list in progress, while there is one to show. */
  get preview(): ListPreview | undefined {
    return this.current;
  }

  on(listener: (preview: ListPreview | undefined) => void): Disposable {
    return this.emitter.on(listener);
  }

  /** A list began whose buffer may be shown; an earlier one ends first. */
  begin(preview: ListPreview): void {
    this.end();
    this.current = preview;
    this.announced = false;
  }

  /** The list's buffer grew: announced within `intervalMs` of the last announcement. */
  grew(): void {
    if (!this.current || this.timer) return;
    const wait = Math.max(0, this.lastAt + this.intervalMs - this.clock.now());
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      if (!this.current) return;
      this.lastAt = this.clock.now();
      this.announced = true;
      this.emitter.fire(this.current);
    }, wait);
  }

  /** The preview is gone (the list completed or failed): announced at once, once. */
  end(): void {
    if (!this.current) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.current = undefined;
    if (this.announced) this.emitter.fire(undefined);
    this.announced = false;
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.current = undefined;
    this.emitter.dispose();
  }
}
