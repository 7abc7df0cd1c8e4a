/**
 * The line discipline of a login terminal, as a TTY in canonical mode has it: the user's keys
 * are echoed, Backspace takes back the last character, and a line reaches the plugin only when
 * Enter ends it (a plugin reads whole lines: a code, a password). Secrets typed for a prompt
 * that hides them are still echoed as `*`, never as text, once `hidden` is set.
 * VS Code-free: the terminal adapter feeds it the raw keys and writes back what it echoes.
 */
/** Keys that are not text: arrows, Home, function keys (CSI and SS3 sequences, Alt+key). */
const ESCAPE_SEQUENCE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1bO.|\x1b./gs;

export class LineInput {
  private line = '';
  /** Echo `*` instead of the characters typed (a password prompt). */
  hidden = false;

  /** Takes raw keys; returns what to echo and the lines the user completed (each with its newline). */
  feed(keys: string): { echo: string; lines: string[] } {
    let echo = '';
    const lines: string[] = [];
    for (const ch of keys.replace(ESCAPE_SEQUENCE, '')) {
      if (ch === '\r' || ch === '\n') {
        lines.push(`${this.line}\n`);
        this.line = '';
        echo += '\r\n';
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line.length > 0) {
          this.line = [...this.line].slice(0, -1).join('');
          echo += '\b \b';
        }
      } else if (ch >= ' ' || ch === '\t') {
        this.line += ch;
        echo += this.hidden ? '*' : ch;
      }
      // Other control keys are not part of a line.
    }
    return { echo, lines };
  }
}

/** Text a plugin wrote, as a terminal shows it: every line break as CR LF. */
export function terminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** True when a plugin's last words ask for a secret: what the user types next is echoed as `*`. */
export function asksForSecret(text: string): boolean {
  return /(password|passcode|secret|token|pin)\s*:?\s*$/i.test(text.trimEnd());
}
