import { parse } from 'yaml';

/** A hook of a release (its own manifest, run at the events it names). */
export interface ReleaseHook {
  readonly name: string;
  readonly kind: string;
  readonly path: string;
  readonly events: readonly string[];
  readonly manifest: string;
  readonly lastRun: string | undefined;
}

/** One object the release's manifest declares (`# Source:` file kept). */
export interface ManifestObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** Empty for a cluster-scoped kind or an object that names none (helm puts it in the release's namespace). */
  readonly namespace: string;
  readonly source: string | undefined;
}

/** What opening a revision shows, decoded from its payload on demand. */
export interface ReleaseDetails {
  readonly name: string;
  readonly namespace: string;
  readonly revision: number;
  readonly status: string;
  readonly description: string;
  readonly chartName: string;
  readonly chartVersion: string;
  readonly appVersion: string;
  readonly firstDeployed: string | undefined;
  readonly lastDeployed: string | undefined;
  /** The values the user supplied (`helm get values`). */
  readonly userValues: Record<string, unknown>;
  /** The chart's values merged with the user's (`helm get values --all`). */
  readonly computedValues: Record<string, unknown>;
  readonly manifest: string;
  readonly notes: string;
  readonly hooks: readonly ReleaseHook[];
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The details of a decoded release (helm's release/v1 JSON: name, info, chart, config, manifest, hooks, version). */
export function releaseDetailsOf(release: Json): ReleaseDetails {
  const info = obj(release.info);
  const chart = obj(release.chart);
  const meta = obj(chart.metadata);
  const userValues = obj(release.config);
  return {
    name: str(release.name),
    namespace: str(release.namespace),
    revision: Number(release.version) || 0,
    status: str(info.status) || 'unknown',
    description: str(info.description),
    chartName: str(meta.name),
    chartVersion: str(meta.version),
    appVersion: str(meta.appVersion),
    firstDeployed: str(info.first_deployed) || undefined,
    lastDeployed: str(info.last_deployed) || undefined,
    userValues,
    computedValues: coalesceValues(obj(chart.values), userValues),
    manifest: str(release.manifest),
    notes: str(info.notes),
    hooks: (Array.isArray(release.hooks) ? release.hooks : []).map((h) => {
      const hook = obj(h);
      return {
        name: str(hook.name),
        kind: str(hook.kind),
        path: str(hook.path),
        events: Array.isArray(hook.events) ? hook.events.map(str) : [],
        manifest: str(hook.manifest),
        lastRun: str(obj(hook.last_run).completed_at) || str(obj(hook.last_run).started_at) || undefined,
      };
    }),
  };
}

/**
 * Helm's CoalesceValues for a release's computed values: the user's values over the chart's,
 * maps merged key by key, anything else replaced; a user's `null` deletes the chart's key.
 */
export function coalesceValues(chartValues: Json, userValues: Json): Json {
  const out: Json = { ...chartValues };
  for (const [key, value] of Object.entries(userValues)) {
    if (value === null) {
      delete out[key];
      continue;
    }
    const base = chartValues[key];
    const isMap = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
    out[key] = isMap(value) && isMap(base) ? coalesceValues(base as Json, value as Json) : value;
  }
  return out;
}

/** The objects a manifest declares, in its order (helm joins its files with `---` and a `# Source:` line); documents that are not objects are skipped. */
export function manifestObjects(manifest: string): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const chunk of manifest.split(/^---[^\n]*$/m)) {
    let value: Json;
    try {
      value = obj(parse(chunk));
    } catch {
      continue; // a document helm would not have applied either
    }
    const meta = obj(value.metadata);
    if (!str(value.kind) || !str(meta.name)) continue;
    const source = /^#\s*Source:\s*(\S+)/m.exec(chunk)?.[1];
    out.push({ apiVersion: str(value.apiVersion), kind: str(value.kind), name: str(meta.name), namespace: str(meta.namespace), source });
  }
  return out;
}
