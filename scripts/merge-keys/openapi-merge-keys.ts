/**
 * The strategic-merge keys of the built-in types, read from a kube-apiserver's OpenAPI v3 (one
 * document per group version, as kubectl reads them), and rendered as the committed table
 * src/edit/merge-keys/builtin-merge-keys.ts.
 *
 * Per field, as kubectl and server-side apply read the schema:
 * - a list with `x-kubernetes-list-type: map` merges item by item by its `x-kubernetes-list-map-keys`;
 * - else a list with `x-kubernetes-patch-strategy` containing `merge` and an
 *   `x-kubernetes-patch-merge-key` merges by that key (strategic merge patch);
 * - else a list with `x-kubernetes-list-type: set`, or a list of scalars with patch strategy
 *   `merge`, merges as a set;
 * - every other list is atomic (one value), and is left out of the table: a list the table does
 *   not name is atomic;
 * - a map with `x-kubernetes-map-type: atomic` (on the field, or on its type unless the field says
 *   `granular`) is one value.
 * The table keeps only the structs through which such a field is reached (no descriptions, no
 * atomic lists), one line per struct; a kind names its root struct.
 */
import type { FieldShapeEntry, MergeKeysTable } from '../../src/edit/merge-keys/merge-shape';

interface Schema {
  type?: string;
  $ref?: string;
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

/** One OpenAPI v3 document (`/openapi/v3/apis/apps/v1`): only its schemas are read. */
export interface OpenApiV3Document {
  components?: { schemas?: Record<string, Schema> };
}

/**
 * The documents of every group version a server serves (`api/v1`, `apis/apps/v1`, ...), read
 * through `get`, and where they came from (`kube-apiserver v1.34.9 /openapi/v3`).
 */
export async function fetchOpenApiV3(get: (path: string) => Promise<unknown>): Promise<{ documents: OpenApiV3Document[]; source: string }> {
  const version = (await get('/version')) as { gitVersion?: string };
  const root = (await get('/openapi/v3')) as { paths?: Record<string, { serverRelativeURL?: string }> };
  const documents: OpenApiV3Document[] = [];
  for (const [name, entry] of Object.entries(root.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (!/^(api\/v1|apis\/[^/]+\/[^/]+)$/.test(name) || !entry.serverRelativeURL) continue;
    documents.push((await get(entry.serverRelativeURL)) as OpenApiV3Document);
  }
  return { documents, source: `kube-apiserver ${version.gitVersion ?? '(unknown version)'} /openapi/v3` };
}

const REF_PREFIX = '#/components/schemas/';

/** `io.k8s.api.core.v1.PodSpec` → `core.v1.PodSpec` (group, version, name). */
function shortName(full: string): string {
  return full.split('.').slice(-3).join('.');
}

/** The schema a property refers to (`$ref`, or `allOf: [{ $ref }]`), by its full name. */
function refOf(s: Schema | undefined): string | undefined {
  const ref = s?.$ref ?? (s?.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
  return ref?.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}

function isScalar(s: Schema | undefined, schemas: Record<string, Schema>): boolean {
  if (!s) return false;
  const ref = refOf(s);
  if (ref) return schemas[ref]?.type !== undefined && schemas[ref].type !== 'object' && schemas[ref].type !== 'array';
  return s.type === 'string' || s.type === 'integer' || s.type === 'number' || s.type === 'boolean';
}

/** Builds the table from the documents of every group version the server serves. */
export function mergeKeysFromOpenApi(documents: readonly OpenApiV3Document[]): MergeKeysTable {
  const schemas: Record<string, Schema> = {};
  for (const doc of documents) Object.assign(schemas, doc.components?.schemas ?? {});
  const names = new Map<string, string>();
  for (const full of Object.keys(schemas)) {
    const short = shortName(full);
    const taken = names.get(short);
    if (taken !== undefined && taken !== full) throw new Error(`two schemas shorten to ${short}: ${taken} and ${full}`);
    names.set(short, full);
  }

  const atomicType = (full: string) => schemas[full]?.['x-kubernetes-map-type'] === 'atomic';
  /** A field's entry, given which structs are in the table (`kept`); undefined: left out. */
  const entryOf = (prop: Schema, kept: Set<string>): FieldShapeEntry | undefined => {
    const ref = refOf(prop);
    const mapType = prop['x-kubernetes-map-type'];
    if (mapType === 'atomic' || (ref && atomicType(ref) && mapType !== 'granular')) return 'atomic';
    if (ref) return kept.has(ref) ? shortName(ref) : undefined;
    if (prop.type === 'array') {
      const itemRef = refOf(prop.items);
      const items = itemRef && atomicType(itemRef) ? 'atomic' : itemRef && kept.has(itemRef) ? shortName(itemRef) : undefined;
      const strategy = (prop['x-kubernetes-patch-strategy'] ?? '').split(',');
      const mapKeys = prop['x-kubernetes-list-type'] === 'map' ? prop['x-kubernetes-list-map-keys'] : undefined;
      const mergeKey = strategy.includes('merge') ? prop['x-kubernetes-patch-merge-key'] : undefined;
      const keys = mapKeys?.length ? mapKeys : mergeKey ? [mergeKey] : undefined;
      if (keys) return items ? { keys, items } : { keys };
      if (prop['x-kubernetes-list-type'] === 'set' || (strategy.includes('merge') && isScalar(prop.items, schemas))) return { set: true };
      return undefined;
    }
    const values = typeof prop.additionalProperties === 'object' ? refOf(prop.additionalProperties) : undefined;
    if (values && kept.has(values)) return atomicType(values) ? undefined : { values: shortName(values) };
    return undefined;
  };

  // The structs worth keeping: a fixed point (types refer to each other, JSONSchemaProps to itself).
  const kept = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [full, s] of Object.entries(schemas)) {
      if (kept.has(full) || !s.properties) continue;
      if (Object.values(s.properties).some((p) => entryOf(p, kept) !== undefined)) {
        kept.add(full);
        grew = true;
      }
    }
  }

  const structs: MergeKeysTable['structs'] = {};
  for (const full of [...kept].sort((a, b) => shortName(a).localeCompare(shortName(b)))) {
    const fields: Record<string, FieldShapeEntry> = {};
    for (const [name, prop] of Object.entries(schemas[full].properties ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
      const entry = entryOf(prop, kept);
      if (entry !== undefined) fields[name] = entry;
    }
    structs[shortName(full)] = fields;
  }

  const kinds: MergeKeysTable['kinds'] = {};
  for (const [full, s] of Object.entries(schemas)) {
    if (refOf(s.properties?.metadata) !== 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta') continue;
    for (const gvk of s['x-kubernetes-group-version-kind'] ?? []) {
      const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
      if (kept.has(full)) kinds[`${apiVersion} ${gvk.kind}`] = shortName(full);
    }
  }
  const sortedKinds = Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b)));
  return { structs, kinds: sortedKinds };
}

/** The committed TypeScript file: one line per struct and per kind. */
export function renderMergeKeys(table: MergeKeysTable, source: string): string {
  const lines = [
    `/**`,
    ` * GENERATED by scripts/merge-keys/generate.ts from ${source}: do not edit.`,
    ` * test/real/merge-keys.real.ts regenerates it from the real server and fails when it differs.`,
    ` * How to read it: src/edit/merge-keys/merge-shape.ts.`,
    ` */`,
    `import type { MergeKeysTable } from './merge-shape';`,
    ``,
    `export const BUILTIN_MERGE_KEYS_SOURCE = ${JSON.stringify(source)};`,
    ``,
    `export const BUILTIN_MERGE_KEYS: MergeKeysTable = {`,
    `  structs: {`,
    ...Object.entries(table.structs).map(([name, fields]) => `    ${JSON.stringify(name)}: ${JSON.stringify(fields)},`),
    `  },`,
    `  kinds: {`,
    ...Object.entries(table.kinds).map(([kind, struct]) => `    ${JSON.stringify(kind)}: ${JSON.stringify(struct)},`),
    `  },`,
    `};`,
    ``,
  ];
  return lines.join('\n');
}
