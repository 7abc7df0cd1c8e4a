/**
 * Reads a body sent as `application/vnd.kubernetes.protobuf` (what client-go's typed clients
 * send since 1.32: `kubectl create configmap`, `create deployment`, ...) into the object's JSON,
 * as kube-apiserver decodes it into the Go type and then encodes that as JSON.
 *
 * The envelope is the magic `k8s\0` and a runtime.Unknown (typeMeta, raw); `raw` is the kind's
 * message, whose fields the generated.proto descriptors of the kubectl on PATH list
 * (kubectl-descriptors.ts reads them from the binary; the caller passes their table). Fields the
 * table does not know are skipped.
 *
 * What Go's JSON encoding of the decoded object leaves out is left out here too: empty strings,
 * false, and zeros (gogo writes every non-pointer field; their JSON tags say omitempty), except
 * the counts that are pointers (`replicas: 0` is meant). Empty messages stay as `{}` (a struct
 * is never omitted), an unset time as null (a pod template's `creationTimestamp: null`).
 */
import type { MessageTable } from './kubectl-descriptors';
import { ProtobufError, Reader } from './reader';

export { ProtobufError } from './reader';

type Json = unknown;

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const META = 'apimachinery.pkg.apis.meta.v1';
/** Pointer fields (`*int32`) whose zero is meant, by message; every other zero is an omitempty value. */
const ZERO_MEANT = new Set([
  'api.apps.v1.DeploymentSpec.replicas',
  'api.apps.v1.ReplicaSetSpec.replicas',
  'api.apps.v1.StatefulSetSpec.replicas',
  'api.batch.v1.JobSpec.parallelism',
  'api.batch.v1.JobSpec.completions',
  'api.batch.v1.JobSpec.backoffLimit',
  'api.autoscaling.v1.ScaleSpec.replicas',
  'apimachinery.pkg.apis.meta.v1.DeleteOptions.gracePeriodSeconds',
]);

/** The message name of a kind: `v1` ConfigMap -> api.core.v1.ConfigMap; `apps/v1` -> api.apps.v1.… */
function messageOf(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  if (group === 'meta.k8s.io' || (group === 'core' && ['DeleteOptions'].includes(kind))) return `${META}.${kind}`;
  return `api.${group.split('.')[0]}.${version}.${kind}`;
}

/** The JSON object a protobuf body carries, with its apiVersion and kind; throws ProtobufError. */
export function decodeKubeProtobuf(body: Buffer, messages: MessageTable): Record<string, Json> {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) throw new ProtobufError('the body does not start with the protobuf magic number');
  const decoder = new Decoder(messages);
  const unknown = decoder.message(new Reader(body.subarray(4)), 'apimachinery.pkg.runtime.Unknown', true) as { typeMeta?: { apiVersion?: string; kind?: string }; raw?: Buffer };
  const apiVersion = unknown.typeMeta?.apiVersion ?? '';
  const kind = unknown.typeMeta?.kind ?? '';
  const name = messageOf(apiVersion, kind);
  if (!messages.has(name)) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const object = decoder.message(new Reader(unknown.raw ?? Buffer.alloc(0)), name, false) as Record<string, Json>;
  return { kind, apiVersion, ...object };
}

/** Decodes messages by the table's fields. */
class Decoder {
  constructor(private readonly messages: MessageTable) {}

  /** Decodes one message; `raw` keeps bytes as Buffers (the envelope) instead of base64. */
  message(r: Reader, name: string, raw: boolean): Json {
    const fields = this.messages.get(name);
    if (!fields) throw new ProtobufError(`unknown message ${name}`);
    const out: Record<string, Json> = {};
    while (!r.done) {
      const tag = Number(r.varint());
      const num = tag >>> 3;
      const wire = tag & 7;
      const field = fields.get(num);
      if (!field) {
        r.skip(wire);
        continue;
      }
      if (field.type.startsWith('{')) {
        const [keyType, valueType] = field.type.slice(1, -1).split(',');
        const entry = this.entry(new Reader(r.bytes()), keyType, valueType);
        const map = (out[field.name] ??= {}) as Record<string, Json>;
        map[String(entry[0])] = entry[1];
      } else if (field.type.startsWith('[]')) {
        const list = (out[field.name] ??= []) as Json[];
        const type = field.type.slice(2);
        if (wire === 2 && isPackable(type)) {
          const packed = new Reader(r.bytes());
          while (!packed.done) list.push(scalar(packed, type, 0));
        } else list.push(this.value(r, type, wire, raw));
      } else {
        out[field.name] = this.value(r, field.type, wire, raw);
      }
    }
    return finish(name, out);
  }

  entry(r: Reader, keyType: string, valueType: string): [Json, Json] {
    let key: Json = keyType === 'string' ? '' : 0;
    let val: Json = valueType === 'string' ? '' : valueType === 'bytes' ? '' : undefined;
    while (!r.done) {
      const tag = Number(r.varint());
      if (tag >>> 3 === 1) key = this.value(r, keyType, tag & 7, false);
      else if (tag >>> 3 === 2) val = this.value(r, valueType, tag & 7, false);
      else r.skip(tag & 7);
    }
    return [key, val === undefined ? {} : val];
  }

  value(r: Reader, type: string, wire: number, raw: boolean): Json {
    if (type === 'string') return r.bytes().toString('utf8');
    if (type === 'bytes') return raw ? r.bytes() : r.bytes().toString('base64');
    if (isPackable(type)) return scalar(r, type, wire);
    return this.message(new Reader(r.bytes()), type, raw);
  }
}

function isPackable(type: string): boolean {
  return ['int32', 'int64', 'bool', 'double', 'float'].includes(type);
}

function scalar(r: Reader, type: string, wire: number): Json {
  if (type === 'double') return r.fixed(8).readDoubleLE(0);
  if (type === 'float') return r.fixed(4).readFloatLE(0);
  if (wire !== 0) throw new ProtobufError(`field of type ${type} has wire type ${wire}`);
  const v = r.varint();
  if (type === 'bool') return v !== 0n;
  return Number(type === 'int32' ? BigInt.asIntN(32, v) : BigInt.asIntN(64, v));
}

/** The JSON form of the special messages, and Go's omitempty for the rest. */
function finish(name: string, out: Record<string, Json>): Json {
  switch (name) {
    case `${META}.Time`:
    case `${META}.MicroTime`:
      return timeOf(out, name.endsWith('MicroTime'));
    case 'apimachinery.pkg.api.resource.Quantity':
      return out.string ?? '0';
    case 'apimachinery.pkg.util.intstr.IntOrString':
      return out.type === 1 ? (out.strVal ?? '') : (out.intVal ?? 0);
    case `${META}.Duration`:
      return out.duration ?? '0s';
    case `${META}.FieldsV1`:
    case 'apimachinery.pkg.runtime.RawExtension':
      return parseRaw(out.Raw ?? out.raw);
    case 'apimachinery.pkg.runtime.Unknown':
    case 'apimachinery.pkg.runtime.TypeMeta':
      return out;
  }
  for (const [k, v] of Object.entries(out)) {
    if (v === '' || v === false || (v === 0 && !ZERO_MEANT.has(`${name}.${k}`))) delete out[k];
  }
  return out;
}

function timeOf(t: Record<string, Json>, micro: boolean): string | null {
  const seconds = Number(t.seconds ?? 0);
  const nanos = Number(t.nanos ?? 0);
  if (seconds === 0 && nanos === 0) return null;
  const iso = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

function parseRaw(data: Json): Json {
  const text = Buffer.from(String(data ?? ''), 'base64').toString('utf8');
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ProtobufError('an embedded object is not JSON');
  }
}
