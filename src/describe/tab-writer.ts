/**
 * Go's text/tabwriter as kubectl describe configures it (minwidth 0, padding 2, padchar ' ',
 * no flags): cells end at a tab; a column block is a run of adjacent lines that have a cell in
 * that column, padded to its widest cell plus 2; a line's last cell is never padded.
 * Widths count UTF-16 code units, close enough for the ASCII kubectl prints.
 */
export function tabAlign(lines: readonly string[], padding = 2): string[] {
  const cells = lines.map((l) => l.split('\t'));
  const out: string[] = new Array<string>(lines.length);
  const widths: number[] = [];

  const writeLines = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const line = cells[i];
      let text = '';
      for (let j = 0; j < line.length; j++) {
        const cell = line[j];
        text += j < widths.length && j < line.length - 1 ? cell.padEnd(widths[j]) : cell;
      }
      out[i] = text;
    }
  };

  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let current = line0; current < line1; current++) {
      if (column >= cells[current].length - 1) continue;
      writeLines(line0, current);
      line0 = current;
      let width = 0;
      for (; current < line1; current++) {
        const line = cells[current];
        if (column >= line.length - 1) break;
        width = Math.max(width, line[column].length + padding);
      }
      widths.push(width);
      format(line0, current);
      widths.pop();
      line0 = current;
      current--; // the loop's increment re-reads the line that ended the block
    }
    writeLines(line0, line1);
  };

  format(0, cells.length);
  return out;
}
