import type { KubeObject } from '../../informer';
import { age, ageField, plural, record, str } from './cells';
import { row, type PrintedRow } from './printed-row';

/** ConfigMaps: NAME DATA AGE (DATA counts `data` and `binaryData` keys). Description: "2 keys · 5d". */
export function printConfigMap(obj: KubeObject, now: number): PrintedRow {
  const data = Object.keys(record(obj.data)).length + Object.keys(record(obj.binaryData)).length;
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['DATA', String(data)],
      ['AGE', age(obj, now)],
    ],
    { summary: [plural(data, 'key'), ageField(obj, now)], health: { icon: 'symbol-file', tone: 'neutral' } },
  );
}

/** Secrets: NAME TYPE DATA AGE. Description: "Opaque · 2 keys · 5d". Values are never read. */
export function printSecret(obj: KubeObject, now: number): PrintedRow {
  const data = Object.keys(record(obj.data)).length;
  const type = str(obj.type);
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['TYPE', type],
      ['DATA', String(data)],
      ['AGE', age(obj, now)],
    ],
    { summary: [type, plural(data, 'key'), ageField(obj, now)], health: { icon: 'key', tone: 'neutral' } },
  );
}

/** Namespaces: NAME STATUS AGE. Description: "Active · 12d". */
export function printNamespace(obj: KubeObject, now: number): PrintedRow {
  const phase = str(record(obj.status).phase);
  return row(
    [
      ['NAME', obj.metadata.name ?? ''],
      ['STATUS', phase],
      ['AGE', age(obj, now)],
    ],
    { summary: [phase, ageField(obj, now)], health: phase === 'Terminating' ? { icon: 'trash', tone: 'busy' } : { icon: 'symbol-namespace', tone: 'neutral' } },
  );
}
