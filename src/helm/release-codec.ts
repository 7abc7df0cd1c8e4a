import { gunzipSync, gzipSync, constants } from 'node:zlib';
import type { ReleaseStorage } from './release-record';

/**
 * Helm's storage format (helm pkg/storage/driver/util.go): `encodeRelease` is base64 of the gzip
 * (best compression) of the release JSON; `decodeRelease` base64-decodes and gunzips only when the
 * gzip magic header (1f 8b 08) is there (releases stored before compression are plain JSON). A
 * ConfigMap's `data.release` is that string; a Secret's `data.release` is Kubernetes' base64 of
 * that string's bytes, so it reads as base64 twice.
 */

const MAGIC_GZIP = Buffer.from([0x1f, 0x8b, 0x08]);

/** A payload that is not Helm's storage format; the message says so in a user's words. */
export class ReleaseDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReleaseDecodeError';
  }
}

/** helm's encodeRelease: the release as its storage driver writes it (ConfigMap data, or the bytes of a Secret's). */
export function encodeRelease(release: unknown): string {
  const json = Buffer.from(JSON.stringify(release), 'utf8');
  return gzipSync(json, { level: constants.Z_BEST_COMPRESSION }).toString('base64');
}

/** helm's decodeRelease: the release JSON from the string its driver stored. */
export function decodeRelease(data: string): Record<string, unknown> {
  const bytes = strictBase64(data, 'the release data');
  let json = bytes;
  if (bytes.length > 3 && bytes.subarray(0, 3).equals(MAGIC_GZIP)) {
    try {
      json = gunzipSync(bytes);
    } catch {
      throw new ReleaseDecodeError('the release data is gzip that does not decompress (a cut or damaged payload)');
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString('utf8'));
  } catch {
    throw new ReleaseDecodeError('the release data does not hold JSON after base64 and gzip: not a Helm 3 release');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ReleaseDecodeError('the release data holds JSON that is not a release object');
  return parsed as Record<string, unknown>;
}

/** The `data.release` value of a storage object as the API serves it (a Secret's is base64 once more). */
export function storedReleaseData(storage: ReleaseStorage, release: unknown): string {
  const helmString = encodeRelease(release);
  return storage === 'secret' ? Buffer.from(helmString, 'utf8').toString('base64') : helmString;
}

/** The release inside a storage object as the API served it (a Secret or a ConfigMap with `data.release`). */
export function decodeStorageObject(storage: ReleaseStorage, obj: { data?: Record<string, unknown> | null }): Record<string, unknown> {
  const raw = obj.data?.release;
  if (typeof raw !== 'string' || raw === '') throw new ReleaseDecodeError(`the ${storage === 'secret' ? 'Secret' : 'ConfigMap'} has no data.release`);
  const helmString = storage === 'secret' ? strictBase64(raw, "the Secret's data.release").toString('utf8') : raw;
  return decodeRelease(helmString);
}

function strictBase64(text: string, what: string): Buffer {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) throw new ReleaseDecodeError(`${what} is not base64`);
  return Buffer.from(clean, 'base64');
}
