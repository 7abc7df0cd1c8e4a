/**
 * Acting on objects, VS Code-free: what each action writes and says (its plan and its kubectl
 * command), which actions an object offers, the write journal that keeps every write pending
 * until the watch shows it, and the words of a refusal.
 */
export * from './action-catalog';
export * from './action-flow';
export * from './action-flow-words';
export * from './action-plan';
export * from './action-runner';
export * from './action-target';
export * from './cronjob-actions';
export * from './delete-action';
export * from './drain';
export * from './drain-run';
export * from './kubectl-command';
export * from './node-actions';
export * from './refusal-words';
export * from './rollback';
export * from './selector-match';
export * from './watch-expectation';
export * from './workload-actions';
export * from './write-journal';
export * from './stream-access';
