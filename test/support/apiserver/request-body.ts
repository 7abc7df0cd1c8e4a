/**
 * The body of a write in the form the write handlers read: an object sent with POST or PUT as
 * JSON, YAML or Kubernetes protobuf (kubectl 1.32's typed clients send protobuf) becomes JSON;
 * any other media type gets the real server's 415 (recorded on 1.34.9: "the body of the request
 * was in an unknown format - accepted media types include: ..."). No Content-Type reads as JSON.
 * A DELETE's DeleteOptions in protobuf become JSON as well. Patches (PATCH) keep their body and
 * type: object-writes.ts checks the patch types.
 *
 * Protobuf is read through the message descriptors the kubectl on PATH carries (read once, on
 * the first protobuf body); without them a protobuf body gets that 415 too, saying so.
 */
import { load } from 'js-yaml';
import { type KubectlMessages, kubectlMessages } from './protobuf/kubectl-descriptors';
import { ProtobufError, decodeKubeProtobuf } from './protobuf/kube-protobuf';
import type { StatusJson } from './status';
import { badRequest, unsupportedBodyType } from './write-status';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

export type ReadBody = { ok: true; body: Buffer; contentType: string } | { ok: false; status: StatusJson };

/** `messages` gives the protobuf message table (the kubectl on PATH's unless a test passes another). */
export function readBody(method: string, contentTypeHeader: string, body: Buffer, messages: () => KubectlMessages = kubectlMessages): ReadBody {
  const contentType = contentTypeHeader.split(';')[0].trim().toLowerCase();
  // A DELETE's DeleteOptions may come as protobuf too (`kubectl drain` without evictions); other bodies are the delete's to judge.
  if (method === 'DELETE' && contentType === PROTOBUF && body.length > 0) return protobufAsJson(body, messages());
  if (method !== 'POST' && method !== 'PUT') return { ok: true, body, contentType };
  if (contentType === '' || contentType === 'application/json' || contentType === '*/*') return { ok: true, body, contentType: 'application/json' };
  if (contentType === PROTOBUF) return protobufAsJson(body, messages());
  if (contentType === 'application/yaml') {
    let parsed: unknown;
    try {
      parsed = load(body.toString('utf8'));
    } catch (err) {
      return { ok: false, status: badRequest(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`) };
    }
    return { ok: true, body: Buffer.from(JSON.stringify(parsed ?? null)), contentType: 'application/json' };
  }
  return { ok: false, status: unsupportedBodyType() };
}

function protobufAsJson(body: Buffer, messages: KubectlMessages): ReadBody {
  if ('missing' in messages) {
    const status = unsupportedBodyType();
    status.message += ` (the sandbox reads protobuf only through the local kubectl's own message descriptors: ${messages.missing})`;
    return { ok: false, status };
  }
  try {
    return { ok: true, body: Buffer.from(JSON.stringify(decodeKubeProtobuf(body, messages.table))), contentType: 'application/json' };
  } catch (err) {
    if (err instanceof ProtobufError) return { ok: false, status: badRequest(`the object provided is unrecognized: ${err.message}`) };
    throw err;
  }
}
