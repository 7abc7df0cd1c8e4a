import type { WriteRecord } from '../../actions';
import { escapeMarkdown } from '../tree/markdown';
import type { NodePresentation } from '../tree/node-presentation';
import { themeColors } from '../tree/tone';

/**
 * How a row shows a write on its object: a spinning icon and "scale pending" until the watch shows
 * it, a check and "scale done" for a moment after, a warning and "the view may be behind" when the
 * watch has not shown it in time (never "failed": the server said yes), an error and "failed"
 * when the server refused. The row's own fields follow.
 */
export function markRow(row: NodePresentation, record: WriteRecord): NodePresentation {
  const lead = (text: string) => (row.description ? `${text} · ${row.description}` : text);
  switch (record.state) {
    case 'sending':
    case 'pending':
      return { ...row, icon: { id: 'sync~spin' }, description: lead(`${record.verb} pending`) };
    case 'confirmed':
    case 'unwatched':
      return { ...row, icon: { id: 'check', color: themeColors.green }, description: lead(`${record.verb} done`) };
    case 'behind':
      return { ...row, icon: { id: 'warning', color: themeColors.yellow }, description: lead(`${record.verb} sent · the view may be behind`) };
    case 'failed':
      return { ...row, icon: { id: 'error', color: themeColors.red }, description: lead(`${record.verb} failed`) };
  }
}

/** The tooltip paragraph of a write: what was sent and what came of it, with the time. */
export function markTooltip(record: WriteRecord, now: number): string {
  const ago = Math.max(0, Math.round((now - record.startedAt) / 1000));
  const what = `**${escapeMarkdown(record.verb)}**${record.summary ? ` (${escapeMarkdown(record.summary)})` : ''}, ${ago} s ago`;
  switch (record.state) {
    case 'sending':
      return `$(sync~spin) ${what}: sent, waiting for the server's answer.`;
    case 'pending':
      return `$(sync~spin) ${what}: ${record.resourceVersion ? `the server wrote it at resourceVersion ${escapeMarkdown(record.resourceVersion)}` : 'the server accepted it'}; waiting for the watch to show it.`;
    case 'confirmed':
    case 'unwatched':
      return `$(check) ${what}: ${escapeMarkdown(record.outcome ?? 'done')}.`;
    case 'behind':
      return `$(warning) ${what}: ${escapeMarkdown(record.outcome ?? 'not shown by the watch yet')}.`;
    case 'failed':
      return `$(error) ${what}: ${escapeMarkdown(record.outcome ?? 'failed')}`;
  }
}
