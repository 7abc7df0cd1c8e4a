/**
 * Server-side apply's schema check, as kube-apiserver 1.34 makes it (seen on 1.34.9): an apply
 * configuration with a field its kind's schema does not declare is refused before anything else,
 * with a 500 and no reason: `failed to create typed patch object (NS/NAME; apps/v1,
 * Kind=Deployment): .spec.replicaz: field not declared in schema` (with or without
 * `fieldValidation=Strict`: the typed patch cannot be built). Kinds whose schema was not recorded
 * (custom resources here) take any field, as a CRD that preserves unknown fields.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ResourceDefinition } from './types';

type Schema = Record<string, unknown>;
let recorded: Record<string, Schema> | undefined;

function schemas(): Record<string, Schema> {
  recorded ??= JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'openapi', 'schemas-1.34.json'), 'utf8')) as Record<string, Schema>;
  return recorded;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function resolve(schema: Schema): Schema | undefined {
  const ref = (schema.$ref as string | undefined) ?? ((schema.allOf as Schema[] | undefined)?.[0]?.$ref as string | undefined);
  return ref ? schemas()[ref.replace('#/components/schemas/', '')] : schema;
}

/** The first field of `value` that `schema` does not declare, as the server names it (`.spec.replicaz`). */
function undeclared(schema: Schema | undefined, value: unknown, at: string): string | undefined {
  const s = schema && resolve(schema);
  if (!s || s['x-kubernetes-preserve-unknown-fields'] === true) return undefined;
  if (isMap(value)) {
    const properties = s.properties as Record<string, Schema> | undefined;
    const additional = s.additionalProperties as Schema | undefined;
    for (const [k, v] of Object.entries(value)) {
      const field = properties?.[k] ?? (isMap(additional) ? additional : undefined);
      if (!field) {
        if (properties) return `${at}.${k}`;
        continue;
      }
      const deeper = undeclared(field, v, `${at}.${k}`);
      if (deeper) return deeper;
    }
  } else if (Array.isArray(value) && isMap(s.items)) {
    for (const [i, item] of value.entries()) {
      const key = isMap(item) && typeof item.name === 'string' ? `[name="${item.name}"]` : `[${i}]`;
      const deeper = undeclared(s.items as Schema, item, `${at}${key}`);
      if (deeper) return deeper;
    }
  }
  return undefined;
}

/** The refusal's message for `config` of `def`, or undefined when its schema declares every field (or was not recorded). */
export function undeclaredFieldMessage(def: ResourceDefinition, apiVersion: string, config: Record<string, unknown>, namespace: string | undefined, name: string): string | undefined {
  const kind = Object.values(schemas()).find((s) => (s['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined)?.some((g) => g.group === def.group && g.version === def.version && g.kind === def.kind));
  if (!kind) return undefined;
  const field = undeclared(kind, config, '');
  if (!field) return undefined;
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  return `failed to create typed patch object (${namespace ?? ''}/${name}; ${gv}, Kind=${def.kind}): ${field}: field not declared in schema`;
}
