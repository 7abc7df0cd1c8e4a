import { printCells, type PrinterColumn } from '../printers';
import { staleDescription, type Staleness } from '../staleness';
import type { TableColumn } from './table-columns';
import type { RowView } from './table-protocol';
import type { TableRow } from './table-rows';

/** What drawing a row needs of its table. */
export interface RowDrawing {
  readonly context: string;
  readonly printKind: string | undefined;
  crdColumns(entryId: string): readonly PrinterColumn[] | undefined;
  /** A change older than this is not flashed any more. */
  readonly flashMs: number;
  stalenessOf?(entryId: string): Staleness | undefined;
  contextValueOf?(row: TableRow): string;
}

/**
 * One row as the page draws it: the shown columns' cells printed now (ages advance), the
 * borrowed cells with their hovers and tones, and what changed since the page last saw it
 * (told once: the row's marks are cleared). Its context carries the object's reference, as the
 * tree's row does, so the tree's commands accept it.
 */
export function rowView(row: TableRow, drawn: readonly TableColumn[], now: number, draw: RowDrawing): RowView {
    const printed = printCells(row.object, draw.printKind, now, draw.crdColumns(row.entryId));
    const cells: string[] = [];
    const titles: Record<number, string> = {};
    const tones: Record<number, 'muted' | 'warning'> = {};
    const changed: number[] = [];
    const flash = row.flash && now - row.flash.at <= draw.flashMs ? row.flash.columns : undefined;
    drawn.forEach((column, i) => {
      if (column.source === 'namespace') cells.push(row.namespace);
      else if (column.source === 'printer') cells.push(printed[column.cell] ?? '');
      else {
        const cell = column.extra.cell(draw.context, row.object);
        cells.push(cell.text);
        if (cell.title) titles[i] = cell.title;
        if (cell.tone === 'muted' || cell.tone === 'warning') tones[i] = cell.tone;
      }
      if (flash?.has(column.id)) changed.push(i);
    });
    row.flash = undefined;
    const added = row.addedAt !== undefined && now - row.addedAt <= draw.flashMs;
    row.addedAt = undefined;
    const staleness = draw.stalenessOf?.(row.entryId);
    const context = JSON.stringify({
      webviewSection: 'row',
      preventDefaultContextMenuItems: true,
      kind: 'object',
      entryId: row.entryId,
      namespace: row.namespace,
      name: row.name,
      tableRow: draw.contextValueOf?.(row) ?? 'object',
    });
    return {
      key: row.key,
      cells,
      ...(Object.keys(titles).length > 0 ? { titles } : {}),
      ...(Object.keys(tones).length > 0 ? { tones } : {}),
      ...(changed.length > 0 ? { changed } : {}),
      ...(row.deletedAt !== undefined ? { deleted: true } : {}),
      ...(added ? { added: true } : {}),
      ...(staleness ? { stale: staleDescription(staleness, now) } : {}),
      context,
    };
  }

