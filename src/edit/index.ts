/**
 * Editing live objects without VS Code: the editable text of an object and back, where fields
 * are in YAML text, the three-way merge of an edit onto the live object, the notice of a change
 * on the server, the save (update with optimistic concurrency, rebase, conflicts) and
 * server-side apply with its dry run and conflicts.
 */
export * from './apply-conflicts';
export * from './apply-edit';
export * from './apply-intent';
export * from './buffer-problems';
export * from './edit-session';
export * from './editable-object';
export * from './field-path';
export * from './keyed-path';
export * from './merge-patch';
export * from './origin-refused';
export * from './refusal';
export * from './secret-value';
export * from './server-change';
export * from './three-way-merge';
export * from './write-refusals';
export * from './yaml-locations';
