export { STALE_GRACE_MS, StalenessTracker, type StaleCause, type Staleness, type WatchLike } from './staleness-tracker';
export { staleBanner, staleDescription, staleExplanation, staleFor } from './stale-text';
