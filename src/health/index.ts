/** Watch health over time, VS Code-free: the recorder, its tracks and their rate buckets. */
export * from './health-recorder';
export * from './health-state';
export * from './rate-buckets';
export * from './watch-track';
export * from './catch-up';
