/** The resource table's view model (VS Code-free): rows, columns, sort, filter and the window the page shows. */
export * from './extra-columns';
export * from './row-filter';
export * from './sort-key';
export * from './table-columns';
export * from './table-model';
export * from './table-protocol';
export * from './table-rows';
export * from './table-text';
export * from './kind-lookup';
export * from './row-view';
export * from './kind-resolver';
