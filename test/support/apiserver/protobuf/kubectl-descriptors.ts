/**
 * The protobuf message table of the Kubernetes types, read at run time from the kubectl on PATH.
 * Go programs built with gogo protobuf register each `generated.proto` of k8s.io/api and
 * k8s.io/apimachinery as a gzipped FileDescriptorProto inside the binary; this finds those gzip
 * members, inflates each (bounded; the header has no optional fields), and keeps the descriptors of k8s.io/api/** and
 * k8s.io/apimachinery/** generated.proto files. Nothing of them is stored in this repository.
 *
 * The table names a message by its full name without `k8s.io.` (api.core.v1.ConfigMap) and lists
 * its fields by number: NAME, TYPE and label. TYPE is a scalar (string int32 int64 bool bytes
 * double float), a message's full name, `[]TYPE` for a repeated field, or `{K,V}` for a map
 * (a repeated field of a nested `…Entry` type whose options say map_entry).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ProtobufError, Reader } from './reader';

export interface FieldSpec {
  name: string;
  type: string;
  label: 'optional' | 'required' | 'repeated';
}
export type MessageFields = Map<number, FieldSpec>;
export type MessageTable = Map<string, MessageFields>;
/** The table, or in words why there is none. */
export type KubectlMessages = { table: MessageTable } | { missing: string };

/** Go's gzip header: deflate, no flags, no mtime, best compression, unknown OS. */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff]);
/** At most this much input per gzip member (a descriptor's is tens of KiB) and this much output. */
const MEMBER_INPUT = 1 << 20;
const MEMBER_OUTPUT = 8 << 20;
const WANTED = /^k8s\.io\/(api|apimachinery)\/.*generated\.proto$/;
/** FieldDescriptorProto.Type numbers and the table's names for them (k8s uses no others but enums). */
const SCALARS: Record<number, string> = { 1: 'double', 2: 'float', 3: 'int64', 4: 'int64', 5: 'int32', 8: 'bool', 9: 'string', 12: 'bytes', 13: 'int64', 14: 'int32' };
const TYPE_MESSAGE = 11;
const LABELS = { 1: 'optional', 2: 'required', 3: 'repeated' } as const;

/** The kubectl a user would run: the first executable `kubectl` on PATH, symlinks followed. */
export function kubectlOnPath(pathEnv = process.env.PATH ?? ''): string | undefined {
  const names = process.platform === 'win32' ? ['kubectl.exe', 'kubectl'] : ['kubectl'];
  for (const dir of pathEnv.split(path.delimiter).filter((d) => d !== '')) {
    for (const name of names) {
      try {
        const candidate = fs.realpathSync(path.join(dir, name));
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

let cached: KubectlMessages | undefined;

/** The table from the kubectl on PATH, read once per process (on the first protobuf body). */
export function kubectlMessages(): KubectlMessages {
  if (cached) return cached;
  const kubectl = kubectlOnPath();
  if (!kubectl) return (cached = { missing: 'no kubectl on PATH' });
  let binary: Buffer;
  try {
    binary = fs.readFileSync(kubectl);
  } catch (err) {
    return (cached = { missing: `${kubectl} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
  }
  const table = messageTableOf(binary);
  cached = table.size > 0 ? { table } : { missing: `${kubectl} holds no Kubernetes protobuf descriptors` };
  return cached;
}

/** The message table of every Kubernetes FileDescriptorProto gzipped inside a binary. */
export function messageTableOf(binary: Buffer): MessageTable {
  const table: MessageTable = new Map();
  const mapEntries = new Map<string, string>();
  for (let at = binary.indexOf(GZIP_MAGIC); at >= 0; at = binary.indexOf(GZIP_MAGIC, at + 1)) {
    let file: Buffer;
    try {
      // The deflate stream after the 10-byte header; inflating stops at its end, whatever follows.
      file = inflateRawSync(binary.subarray(at + GZIP_MAGIC.length, at + MEMBER_INPUT), { maxOutputLength: MEMBER_OUTPUT });
    } catch {
      continue; // not a whole deflate stream (or a bigger one than a descriptor): not ours
    }
    try {
      readFile(file, table, mapEntries);
    } catch (err) {
      if (!(err instanceof ProtobufError)) throw err;
    }
  }
  // A map field names its entry type; the table says `{K,V}` instead.
  for (const fields of table.values()) {
    for (const field of fields.values()) {
      const entry = field.type.startsWith('[]') ? mapEntries.get(field.type.slice(2)) : undefined;
      if (entry) field.type = entry;
    }
  }
  return table;
}

type Raw = Map<number, (Buffer | bigint)[]>;

/** The fields of one message by number: varints as bigint, length-delimited ones as Buffers. */
function rawFields(buf: Buffer): Raw {
  const r = new Reader(buf);
  const out: Raw = new Map();
  while (!r.done) {
    const tag = Number(r.varint());
    const wire = tag & 7;
    const value = wire === 0 ? r.varint() : wire === 2 ? r.bytes() : undefined;
    if (value === undefined) r.skip(wire);
    else out.set(tag >>> 3, [...(out.get(tag >>> 3) ?? []), value]);
  }
  return out;
}

const text = (raw: Raw, n: number): string => {
  const v = raw.get(n)?.at(-1);
  return Buffer.isBuffer(v) ? v.toString('utf8') : '';
};
const num = (raw: Raw, n: number): number => {
  const v = raw.get(n)?.at(-1);
  return typeof v === 'bigint' ? Number(v) : 0;
};
const messages = (raw: Raw, n: number): Buffer[] => (raw.get(n) ?? []).filter((v): v is Buffer => Buffer.isBuffer(v));

/** A FileDescriptorProto (name 1, package 2, message_type 4), if it is a Kubernetes generated.proto. */
function readFile(buf: Buffer, table: MessageTable, mapEntries: Map<string, string>): void {
  // Cheap first look: a descriptor starts with its name (field 1); most gzip members are not descriptors.
  if (buf[0] !== 0x0a) return;
  const file = rawFields(buf);
  if (!WANTED.test(text(file, 1))) return;
  const pkg = text(file, 2).replace(/^k8s\.io\./, '');
  for (const message of messages(file, 4)) readMessage(message, pkg, table, mapEntries);
}

/** A DescriptorProto (name 1, field 2, nested_type 3, options 7 whose map_entry is 7). */
function readMessage(buf: Buffer, scope: string, table: MessageTable, mapEntries: Map<string, string>): void {
  const message = rawFields(buf);
  const name = `${scope}.${text(message, 1)}`;
  const fields: MessageFields = new Map();
  for (const f of messages(message, 2)) {
    const field = rawFields(f);
    const typeNumber = num(field, 5);
    const type = typeNumber === TYPE_MESSAGE ? text(field, 6).replace(/^\.(k8s\.io\.)?/, '') : SCALARS[typeNumber];
    if (type === undefined) continue; // a wire type no Kubernetes message uses: the decoder skips the field
    const label = LABELS[num(field, 4) as 1 | 2 | 3] ?? 'optional';
    fields.set(num(field, 3), { name: text(field, 1), type: label === 'repeated' ? `[]${type}` : type, label });
  }
  table.set(name, fields);
  for (const nested of messages(message, 3)) readMessage(nested, name, table, mapEntries);
  const options = messages(message, 7).map(rawFields);
  if (options.some((o) => num(o, 7) !== 0)) {
    mapEntries.set(name, `{${fields.get(1)?.type ?? 'string'},${fields.get(2)?.type ?? 'string'}}`);
  }
}
