/**
 * The arithmetic of a windowed grid: which rows a scroll position shows, and whether the rows
 * the page holds cover them. Pure (no DOM), so it is tested in Node.
 */

/** Rows drawn beyond the visible ones on each side, so a small scroll needs no new window. */
export const OVERSCAN = 15;

export interface RowRange {
  readonly start: number;
  readonly count: number;
}

/** The rows visible at `scrollTop` in a viewport `height` px high, with OVERSCAN rows either side, within `total`. */
export function windowFor(scrollTop: number, height: number, rowHeight: number, total: number, overscan = OVERSCAN): RowRange {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight));
  const visible = Math.ceil(height / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(total, first + visible + overscan);
  return { start, count: Math.max(0, end - start) };
}

/** True when `held` (the rows received) has every row `needed` asks for, the last rows of the table aside. */
export function covers(held: RowRange, needed: RowRange, total: number): boolean {
  const neededEnd = Math.min(total, needed.start + needed.count);
  return held.start <= needed.start && held.start + held.count >= neededEnd;
}

/** The scroll position that keeps a row on screen: unchanged when it is, else just enough to show it. */
export function scrollToShow(index: number, scrollTop: number, height: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + height) return top + rowHeight - height;
  return scrollTop;
}
