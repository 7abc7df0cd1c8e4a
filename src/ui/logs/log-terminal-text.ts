/**
 * What the log terminal writes, as text for a pseudoterminal (xterm): CRLF line ends, markers
 * dim or coloured with ANSI SGR codes, kubectl's `--prefix` (`[pod/NAME/CONTAINER] `) when
 * several containers share the terminal. Pure, so the exact bytes are testable.
 */

const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
const YELLOW = '\x1b[33m';
const RED = '\x1b[31m';
/** Prefix colours, cycled by container index (cyan, magenta, green, blue, yellow). */
const PREFIX_COLOURS = ['\x1b[36m', '\x1b[35m', '\x1b[32m', '\x1b[34m', '\x1b[33m'];

/** What a marker tells the reader. */
export type MarkerTone = 'info' | 'warning' | 'error';

/** kubectl's `--prefix`: `[pod/NAME/CONTAINER] `. */
export function logPrefix(pod: string, container: string): string {
  return `[pod/${pod}/${container}] `;
}

/**
 * One log line for the terminal: `prefix` (coloured by `colourIndex`) then the text, ending in
 * CRLF. A bare LF or CR inside the text (it never has a trailing one) becomes CRLF, so a
 * stray carriage return cannot overwrite the line on screen.
 */
export function terminalLine(text: string, prefix = '', colourIndex = 0): string {
  const body = text.replace(/\r\n|\r|\n/g, '\r\n');
  if (!prefix) return `${body}\r\n`;
  const colour = PREFIX_COLOURS[colourIndex % PREFIX_COLOURS.length];
  return `${colour}${prefix}${RESET}${body}\r\n`;
}

/** How a follower's marker reads: a lost-lines warning in yellow, a stop in red, the rest dim. */
export function markerTone(text: string): MarkerTone {
  if (/may have been lost/.test(text)) return 'warning';
  if (/^stopped:|^cannot read the log/.test(text)) return 'error';
  return 'info';
}

/** A marker line: `── text ──`, dim for information, yellow for possible loss, red for a stop. */
export function terminalMarker(text: string, prefix = ''): string {
  const tone = markerTone(text);
  const colour = tone === 'warning' ? YELLOW : tone === 'error' ? RED : DIM;
  return `${colour}── ${prefix}${text} ──${RESET}\r\n`;
}

/** The terminal's name in the terminal list, e.g. `logs shop/web-7d9f8b6c4-2xkqp`. */
export function terminalName(namespace: string, pod: string, containers: readonly string[], previous: boolean): string {
  const which = containers.length === 1 ? `/${containers[0]}` : '';
  return `logs ${namespace ? `${namespace}/` : ''}${pod}${which}${previous ? ' (previous)' : ''}`;
}

/**
 * The first lines: what is followed, and how many lines the terminal keeps (its scrollback, the
 * one cap on kept lines: nothing else holds them).
 */
export function headerLines(namespace: string, pod: string, containers: readonly string[], previous: boolean, keptLines: number): string[] {
  const what = `${previous ? 'last terminated run of' : 'following'} ${namespace ? `${namespace}/` : ''}${pod}, container${containers.length === 1 ? '' : 's'} ${containers.join(', ')}`;
  const keep = previous ? '' : `; keeps the last ${keptLines.toLocaleString('en-US')} lines (terminal.integrated.scrollback); close the terminal to stop`;
  return [`${DIM}── ${what}${keep} ──${RESET}\r\n`];
}
