/** The remembering events feed (issue 33 item 2): VS Code-free. */
export * from './event-record';
export * from './events-store';
export * from './watch-gaps';
export * from './events-scope';
export * from './events-feed';
export * from './warning-pins';
export * from './events-feeds';
export * from './shared-watch';
