/**
 * Estimated heap bytes of what a history holds, for the memory cap. Measured on V8 (Node 24,
 * 64-bit, no pointer compression) with bench/history-memory.ts, which compares the estimate
 * with the heap the store really retains at the B3 scale.
 *
 * Live objects are not counted: a history's newest version of an object the informer still
 * caches is that very object, shared. What is counted is what the history alone keeps alive.
 */

/** A string's bytes: a 16-byte header and one byte per character (two for text outside Latin-1). */
export function stringBytes(s: string): number {
  if (s === '') return 0;
  // eslint-disable-next-line no-control-regex
  const wide = /[^\u0000-\u00ff]/.test(s);
  return 16 + (((wide ? 2 * s.length : s.length) + 7) & ~7);
}

/**
 * One version besides its string: its slot in its history's array and in the eviction queue,
 * with their growth slack.
 */
export const VERSION_SLOT_BYTES = 28;

/**
 * One object's history without its versions: the record (6 fields, and its size as a heap
 * number), its versions array, its entry in the per-watch map with that map's share of hash
 * table, and the uid string the map keeps as key once the object has been replaced.
 */
export const HISTORY_BYTES = 352;
