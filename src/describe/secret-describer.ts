import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { rec, str, writeAnnotations, writeMap, type Json } from './describe-format';

/**
 * kubectl describe secret: type, then each key with its size in bytes. Values are NEVER read
 * into the text: only their lengths (decoded from base64 for `data`, UTF-8 for `stringData`).
 */
export function describeSecret(secret: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  w.line(0, 'Name:', secret.metadata.name ?? '');
  w.line(0, 'Namespace:', secret.metadata.namespace ?? '');
  writeMap(w, 0, 'Labels', secret.metadata.labels);
  writeAnnotations(w, secret);
  w.line(0, '');
  w.line(0, 'Type:', str((secret as Json).type) || 'Opaque');
  w.line(0, '');
  w.line(0, 'Data');
  w.line(0, '====');
  const sizes = new Map<string, number>();
  for (const [key, value] of Object.entries(rec((secret as Json).data))) sizes.set(key, Buffer.from(str(value), 'base64').length);
  for (const [key, value] of Object.entries(rec((secret as Json).stringData))) sizes.set(key, Buffer.byteLength(str(value), 'utf8'));
  for (const [key, size] of [...sizes].sort(([a], [b]) => (a < b ? -1 : 1))) w.line(0, `${key}:`, `${size} bytes`);
  return w;
}
