/**
 * One line for the "Kube Watch" log: a level, as VS Code's LogOutputChannel offers them, and a
 * single-line message. The channel adds the timestamp and the level itself.
 */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  level: LogLevel;
  /** One line, prefixed with `[context/resource in namespace]`, never a credential. */
  message: string;
}

/** Where log lines go: structurally a subset of vscode.LogOutputChannel, so the channel is one. */
export interface LogSink {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Longest message part taken from outside (server messages, error texts) before it is cut. */
const MAX_DETAIL = 600;

/**
 * Text from outside made fit for one log line: whitespace runs (including newlines) become one
 * space, and overlong text is cut with an ellipsis.
 */
export function oneLine(text: string, max = MAX_DETAIL): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `[kind-dev/pods in default] message`. */
export function prefixed(label: string, message: string): string {
  return `[${label}] ${message}`;
}

/** Writes a line to the sink method of its level. */
export function writeLine(sink: LogSink, line: LogLine): void {
  sink[line.level](line.message);
}
