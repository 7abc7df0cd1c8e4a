export * from './timestamped-line';
export * from './resume-deduper';
export * from './continuity';
export * from './log-follower';
export * from './workload-pods';
export * from './workload-log-set';
