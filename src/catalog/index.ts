/** Every kind one click away (issue 23, part 3): the resource types a context serves, by API group. No `vscode` import. */
export * from './resource-catalog';
