/** View models of the actions on objects, VS Code-free: row actions and write marks, prompts and confirmations. */
export * from './action-prompts';
export * from './row-actions';
export * from './write-marks';
