/** CPU and memory where the views show them: the table's extra columns, the tree's rows. No `vscode` import. */
export * from './metric-columns';
export * from './row-usage';
export * from './touched-showings';
export * from './describe-usage';
