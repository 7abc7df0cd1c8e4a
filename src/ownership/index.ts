/** Ownership you can walk (issue 23, part 5): what a row owns, or a Service's Pods, from the caches. No `vscode` import. */
export * from './owned-types';
export * from './related-objects';
