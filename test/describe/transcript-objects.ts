import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KubeObject } from '../../src/informer';

/** The shared transcripts of real API servers (`/work/shared/fixtures`, `../shared/fixtures` from a worktree). */
const FIXTURES = [path.resolve(__dirname, '../../../shared/fixtures'), '/work/shared/fixtures'].find((p) => fs.existsSync(p));

/** The first watch event object of `kind` named `name` in a transcript, as the real server sent it; undefined when the transcripts are not here. */
export function transcriptObject(file: string, kind: string, name: string): KubeObject | undefined {
  if (!FIXTURES) return undefined;
  for (const line of fs.readFileSync(path.join(FIXTURES, file), 'utf8').split('\n')) {
    if (!line.startsWith('{"type":')) continue;
    try {
      const event = JSON.parse(line) as { object?: KubeObject };
      if (event.object?.kind === kind && event.object.metadata?.name === name) return event.object;
    } catch {
      // a line cut by the transcript: not an event
    }
  }
  return undefined;
}
