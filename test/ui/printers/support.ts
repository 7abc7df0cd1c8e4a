import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KubeObject } from '../../../src/informer';

/** A fixed "now" for every printer test: ages are computed against it. */
export const NOW = Date.parse('2026-11-22T12:00:00Z');

/** An RFC 3339 time `ms` before NOW (whole seconds, as the API server writes them). */
export function ago(ms: number): string {
  return new Date(NOW - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Objects recorded from a real API server (see fixtures/transcript-objects.json's `source`). */
export function transcriptObject(key: string): KubeObject {
  const all = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'transcript-objects.json'), 'utf8')) as Record<string, KubeObject>;
  const obj = all[key];
  if (!obj) throw new Error(`no transcript object ${key}`);
  return obj;
}

/** The default (non-wide) cells of a row. */
export function defaultCells(row: { cells: string[]; wideFrom: number }): string[] {
  return row.cells.slice(0, row.wideFrom);
}
