import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { rec, str, writeAnnotations, writeMap, type Json } from './describe-format';

/**
 * kubectl describe configmap, keys only: each key of Data and BinaryData with its size, never
 * its value (a description is for reading state; the YAML document shows values).
 */
export function describeConfigMap(cm: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  w.line(0, 'Name:', cm.metadata.name ?? '');
  w.line(0, 'Namespace:', cm.metadata.namespace ?? '');
  writeMap(w, 0, 'Labels', cm.metadata.labels);
  writeAnnotations(w, cm);
  w.line(0, '');
  w.line(0, 'Data');
  w.line(0, '====');
  for (const [key, value] of Object.entries(rec((cm as Json).data)).sort(([a], [b]) => (a < b ? -1 : 1))) w.line(0, `${key}:`, `${Buffer.byteLength(str(value), 'utf8')} bytes`);
  w.line(0, '');
  w.line(0, 'BinaryData');
  w.line(0, '====');
  for (const [key, value] of Object.entries(rec((cm as Json).binaryData)).sort(([a], [b]) => (a < b ? -1 : 1))) w.line(0, `${key}:`, `${Buffer.from(str(value), 'base64').length} bytes`);
  w.line(0, '');
  return w;
}
