/** A container's files through exec: listing, reading, and copies through tar as `kubectl cp` makes them. */
export * from './container-files';
export * from './container-tools';
export * from './entry-guard';
export * from './listing';
export type { ExtractSummary } from './archive-extract';
export { planUpload, type UploadItem } from './archive-pack';
export { Cancelled, type ContainerTarget, type OutputSink } from './exec-run';
