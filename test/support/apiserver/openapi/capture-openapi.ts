/**
 * Writes schemas-1.34.json: the OpenAPI v3 schemas of the kinds the local API server serves,
 * as kube-apiserver 1.34.9 (the real-server tier's envtest binaries) publishes them, trimmed:
 * only the schemas those kinds reach, without descriptions. openapi.ts builds the documents
 * (`/openapi/v3`, `/openapi/v3/api/v1`, ...) from them and the server's resource definitions.
 *
 *   node --import tsx test/support/apiserver/openapi/capture-openapi.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The group-versions captured, and the kinds of each that the local API server may serve. */
export const CAPTURED: Record<string, string[]> = {
  'api/v1': ['ConfigMap', 'Pod', 'Secret', 'Namespace', 'Service', 'Event', 'Endpoints', 'Node', 'ServiceAccount'],
  'apis/apps/v1': ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'],
  'apis/batch/v1': ['Job', 'CronJob'],
  'apis/policy/v1': ['PodDisruptionBudget', 'Eviction'],
  'apis/discovery.k8s.io/v1': ['EndpointSlice'],
  'apis/events.k8s.io/v1': ['Event'],
  'apis/apiextensions.k8s.io/v1': ['CustomResourceDefinition'],
};
/** Schemas every group-version document carries (Status answers, DeleteOptions bodies, watch events). */
export const META_ROOTS = ['Status', 'DeleteOptions', 'WatchEvent', 'Patch', 'ObjectMeta', 'ListMeta'].map((k) => `io.k8s.apimachinery.pkg.apis.meta.v1.${k}`);

type Schema = Record<string, unknown>;

/** The trimmed schemas of one captured document: those reachable from the kinds (and their lists), descriptions dropped. */
export function trimmed(doc: { components: { schemas: Record<string, Schema> } }, kinds: string[]): Record<string, Schema> {
  const all = doc.components.schemas;
  const roots = Object.entries(all)
    .filter(([, s]) => ((s['x-kubernetes-group-version-kind'] as { kind: string }[] | undefined) ?? []).some((g) => kinds.includes(g.kind) || kinds.map((k) => `${k}List`).includes(g.kind)))
    .map(([name]) => name);
  const out: Record<string, Schema> = {};
  const pending = [...roots, ...META_ROOTS];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in out || !(name in all)) continue;
    out[name] = withoutDescriptions(all[name]) as Schema;
    for (const m of JSON.stringify(all[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) pending.push(m[1]);
  }
  return out;
}

function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k, v]) => !(k === 'description' && typeof v === 'string')).map(([k, v]) => [k, withoutDescriptions(v)]));
}

export function writeFixture(docs: Record<string, { components: { schemas: Record<string, Schema> } }>): string {
  const schemas: Record<string, Schema> = {};
  for (const [gv, kinds] of Object.entries(CAPTURED)) Object.assign(schemas, trimmed(docs[gv], kinds));
  const sorted = Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]]));
  const file = path.join(import.meta.dirname, 'schemas-1.34.json');
  fs.writeFileSync(file, `${Object.entries(sorted).map(([k, v], i) => `${i === 0 ? '{' : ''}${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',\n')}}\n`);
  return file;
}

async function main(): Promise<void> {
  const { ControlPlane } = await import('../../../real/support');
  const plane = await ControlPlane.start({});
  try {
    const docs: Record<string, { components: { schemas: Record<string, Schema> } }> = {};
    for (const gv of Object.keys(CAPTURED)) docs[gv] = JSON.parse((await plane.admin.raw('GET', `/openapi/v3/${gv}`)).text);
    console.log(`wrote ${writeFixture(docs)}`);
  } finally {
    await plane.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) void main();
