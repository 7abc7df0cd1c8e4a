import { readFile } from 'node:fs/promises';
import { TransportError } from '../../base/api-error';
import type { Clock } from '../../base/clock';
import { fileProblem } from '../../base/file-problem';
import { CachingTokenSource, type ObtainedToken, type TokenFetcher } from './token-source';

/** How long a token read from a file is used before the file is read again (client-go's period). */
export const TOKEN_FILE_REREAD_MS = 60_000;

/**
 * Reads a kubeconfig `token-file` (or the in-cluster service account token) as client-go's
 * file token source does: the content with surrounding whitespace trimmed; an empty file is an
 * error. The path is absolute (the loader resolved it against the kubeconfig's directory).
 */
export class TokenFileFetcher implements TokenFetcher {
  constructor(private readonly path: string) {}

  async fetch(signal: AbortSignal): Promise<ObtainedToken> {
    let text: string;
    try {
      text = await readFile(this.path, { encoding: 'utf8', signal });
    } catch (err) {
      if ((err as { name?: string }).name === 'AbortError') throw err;
      throw new TransportError(`the token file ${this.path} cannot be read (${fileProblem(err)})`, 'ECREDENTIALS');
    }
    const token = text.trim();
    if (!token) throw new TransportError(`the token file ${this.path} is empty`, 'ECREDENTIALS');
    return { token };
  }
}

/**
 * The tokens of a token file: read when first needed, again when a minute old, and at once when
 * the server refuses the one read (401). A file that cannot be read after it was read once
 * keeps the last token (a rotation caught mid-write); before that, `fallback` (the user's static
 * `token`, which the file overrides as in client-go) or the error.
 */
export function tokenFileSource(path: string, clock: Clock, fallback?: string): CachingTokenSource {
  const files = new TokenFileFetcher(path);
  const fetcher: TokenFetcher = fallback
    ? {
        fetch: (signal) =>
          files.fetch(signal).catch((err: unknown) => {
            if ((err as { name?: string }).name === 'AbortError') throw err;
            return { token: fallback };
          }),
      }
    : files;
  return new CachingTokenSource(fetcher, { clock, reuseForMs: TOKEN_FILE_REREAD_MS, keepOnFailure: true });
}

