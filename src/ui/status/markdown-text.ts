/**
 * Text from outside (labels, server messages, resourceVersions) made safe for a Markdown hover
 * or document that renders theme icons: emphasis, code, link, HTML and entity characters, table
 * pipes and the `$` of `$(icon)` syntax are escaped, as is a leading list or heading marker;
 * newlines become spaces. The result renders as the literal text, inline or in a table cell.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_[\]<>#|~$&]/g, (c) => `\\${c}`)
    .replace(/^([-+=])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** A Markdown table: a header row, an alignment row and escaped cells. `cells` are already Markdown. */
export function markdownTable(header: readonly string[], align: readonly ('left' | 'right')[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const sep = header.map((_, i) => (align[i] === 'right' ? '--:' : ':--'));
  return [line(header), line(sep), ...rows.map(line)].join('\n');
}
