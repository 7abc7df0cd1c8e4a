/** Find Object (issue 23, part 4): every object in the watched caches, kept current. No `vscode` import. */
export * from './object-index';
