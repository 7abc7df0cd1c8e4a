/** The `kubeWatch.history.*` settings, as the history store uses them. */
export interface HistorySettings {
  /** Versions kept per object, newest first dropped last (`kubeWatch.history.versionsPerObject`). */
  versionsPerObject: number;
  /** Estimated memory for all histories together (`kubeWatch.history.maxMegabytes`). */
  maxMegabytes: number;
  /** How long a deleted object's history stays reachable (`kubeWatch.history.keepDeletedMinutes`). */
  keepDeletedMinutes: number;
}

export const defaultHistorySettings: HistorySettings = {
  versionsPerObject: 20,
  maxMegabytes: 64,
  keepDeletedMinutes: 10,
};

/** Bounds that keep a hand-edited settings.json from doing harm. */
const LIMITS: Record<keyof HistorySettings, [min: number, max: number]> = {
  versionsPerObject: [1, 1000],
  maxMegabytes: [1, 4096],
  keepDeletedMinutes: [0, 7 * 24 * 60],
};

/**
 * Settings as written to the store's settings: values of the wrong type or not finite fall back
 * to the defaults; numbers out of range are clamped; versions are whole.
 */
export function normalizeHistorySettings(raw: Partial<Record<keyof HistorySettings, unknown>> = {}): HistorySettings {
  const out = { ...defaultHistorySettings };
  for (const key of Object.keys(LIMITS) as (keyof HistorySettings)[]) {
    const v = raw[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    const [min, max] = LIMITS[key];
    out[key] = Math.min(max, Math.max(min, key === 'versionsPerObject' ? Math.round(v) : v));
  }
  return out;
}
