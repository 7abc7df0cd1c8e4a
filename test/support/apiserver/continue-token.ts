/**
 * LIST continue tokens, byte-compatible with k8s.io/apiserver/pkg/storage.EncodeContinue:
 * unpadded base64url of `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}` where <key> is the
 * etcd key below the listed prefix (`name` inside a namespace, `namespace/name` cluster-wide).
 * rv -1 marks the "inconsistent" token the 410 Expired answer hands out (transcript 05).
 */

export interface ContinueToken {
  rv: number;
  /** The key to start from (inclusive); the last returned key plus "\u0000". */
  start: string;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start })).toString('base64url');
}

/** Decodes a token; throws an Error whose message follows the real "continue key is not valid: ..." text. */
export function decodeContinue(raw: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch (e) {
    throw new Error(`continue key is not valid: ${(e as Error).message}`);
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown } | null;
  if (!p || typeof p !== 'object' || p.v !== 'meta.k8s.io/v1') {
    throw new Error('continue key is not valid: server does not recognize this encoded key');
  }
  if (typeof p.rv !== 'number' || !Number.isInteger(p.rv) || p.rv === 0 || p.rv < -1) {
    throw new Error('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof p.start !== 'string' || p.start === '') {
    throw new Error('continue key is not valid: encoded start key empty');
  }
  if (p.start.startsWith('/') || p.start.split('/').includes('..')) {
    throw new Error('continue key is not valid: key is not a relative path');
  }
  return { rv: p.rv, start: p.start };
}
