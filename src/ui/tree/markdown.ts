/**
 * Escapes text for one line of Markdown (a tooltip table cell): emphasis, code, links, HTML and
 * cell separators. Line-start syntax (lists, headings) cannot occur inside a cell.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, '\\$&').replace(/\n/g, ' ');
}

/** Inline code that survives backticks in `text`. */
export function inlineCode(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\n/g, ' ')}${pad}${fence}`;
}
