import { Informer, type KubeObject, type KubeTransport, type ResourceType } from '../informer';
import { type Clock, type Disposable } from '../base';
import type { ContextSession } from './context-session';
import { labelOf } from './labels';
import type { WatchManagerOptions } from './manager-options';

/** CustomResourceDefinitions (apiextensions.k8s.io/v1): cluster-scoped, named `<plural>.<group>`. */
export const CRD_TYPE: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};

/** Kubernetes' own API groups with a dot in their name (a CRD's group must have one). */
const BUILT_IN_GROUPS = new Set([
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/** True when `type` may be served by a CustomResourceDefinition: a dotted group that is not one of Kubernetes' own. */
export function mayBeCustomResource(type: Pick<ResourceType, 'group'>): boolean {
  return type.group.includes('.') && !BUILT_IN_GROUPS.has(type.group);
}

/** The versions a CRD serves (`spec.versions[].served`), as one comparable string. */
export function servedVersions(crd: KubeObject): string {
  const versions = (crd as { spec?: { versions?: unknown } }).spec?.versions;
  if (!Array.isArray(versions)) return '';
  return versions
    .filter((v): v is { name: string; served?: unknown } => typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string')
    .filter((v) => v.served !== false)
    .map((v) => v.name)
    .join(',');
}

/** The name of the CRD that would serve `type`. */
export function definitionName(type: Pick<ResourceType, 'group' | 'resource'>): string {
  return `${type.resource}.${type.group}`;
}

/**
 * An informer on one context's CustomResourceDefinitions, so that custom resources print with
 * their CRD's columns, following changes. Where the user may not list CRDs (403), the informer
 * says forbidden and retries slowly; its cache stays empty, and lookups answer undefined.
 * Invariant: after `stop()` resolves, no request or timer of it is left.
 */
export class DefinitionWatch {
  private readonly informer: Informer;
  private readonly subscriptions: Disposable[];

  constructor(options: {
    transport: KubeTransport;
    clock: Clock;
    /** For the log: `<context>/customresourcedefinitions.apiextensions.k8s.io`. */
    name: string;
    /** A definition came, changed or went. */
    onChange: (definitionName: string) => void;
    /** A definition's served versions changed, or it went: the version its type is watched in may be gone (F39). */
    onVersionsChange?: (definitionName: string) => void;
    requestTimeoutMs?: number;
    backoff?: ConstructorParameters<typeof Informer>[0]['backoff'];
  }) {
    this.informer = new Informer({
      transport: options.transport,
      type: CRD_TYPE,
      clock: options.clock,
      name: options.name,
      requestTimeoutMs: options.requestTimeoutMs,
      backoff: options.backoff,
    });
    const changed = (obj: KubeObject) => {
      if (obj.metadata.name) options.onChange(obj.metadata.name);
    };
    const versionsChanged = (obj: KubeObject) => {
      if (obj.metadata.name) options.onVersionsChange?.(obj.metadata.name);
    };
    this.subscriptions = [
      this.informer.addHandler({
        name: 'definitions',
        onAdd: changed,
        onUpdate: (old, obj) => {
          changed(obj);
          if (servedVersions(old) !== servedVersions(obj)) versionsChanged(obj);
        },
        onDelete: (obj) => {
          changed(obj);
          versionsChanged(obj);
        },
      }),
    ];
  }

  start(): void {
    this.informer.start();
  }

  /** Relists (credentials changed: the transport under it was swapped). */
  restart(reason: string): Promise<void> {
    return this.informer.restart(reason);
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    for (const s of this.subscriptions) s.dispose();
  }

  /** The definition named `<plural>.<group>`, as last seen. */
  get(name: string): KubeObject | undefined {
    return this.informer.get(undefined, name);
  }

  get state(): Informer['state'] {
    return this.informer.state;
  }
}

/** What the CRD watches need from the manager around them. */
export interface DefinitionHost {
  readonly clock: Clock;
  readonly options: WatchManagerOptions;
  running(): boolean;
  /** True while some slot of `session` has resolved a type that may be a custom resource. */
  needs(session: ContextSession): boolean;
  /** A definition of `session`'s cluster came, changed or went. */
  changed(session: ContextSession, definitionName: string): void;
  /** A definition of `session`'s cluster changed the versions it serves, or went. */
  versionsChanged(session: ContextSession, definitionName: string): void;
}

/**
 * One CRD watch per session that watches a type that may be custom, started when such a type
 * resolves and stopped when none is left. Invariant: after `stop(which)` resolves, nothing of
 * the picked sessions' CRD watches runs.
 */
export class DefinitionWatches {
  private readonly watches = new Map<ContextSession, DefinitionWatch>();

  constructor(private readonly host: DefinitionHost) {}

  /** Starts watching `session`'s CRDs, once, when one of its slots resolved to a type that may be custom. */
  ensure(session: ContextSession): void {
    const transport = session.transport;
    if (!transport || !this.host.running() || this.watches.has(session) || !this.host.needs(session)) return;
    const informerOptions = this.host.options.informerOptions;
    const watch = new DefinitionWatch({
      transport,
      clock: this.host.clock,
      name: labelOf(session.contextName || session.spec, 'customresourcedefinitions.apiextensions.k8s.io', ''),
      requestTimeoutMs: informerOptions?.requestTimeoutMs,
      backoff: informerOptions?.backoff,
      onChange: (name) => this.host.changed(session, name),
      onVersionsChange: (name) => this.host.versionsChanged(session, name),
    });
    this.watches.set(session, watch);
    watch.start();
  }

  /** Stops (and forgets) the CRD watches of the sessions `which` picks. */
  async stop(which: (session: ContextSession) => boolean): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const [session, watch] of [...this.watches]) {
      if (!which(session)) continue;
      this.watches.delete(session);
      stopping.push(watch.stop());
    }
    await Promise.all(stopping);
  }

  /** Relists `session`'s CRDs, if they are watched. */
  restart(session: ContextSession, reason: string): Promise<void> | undefined {
    return this.watches.get(session)?.restart(reason);
  }

  /** The CRD that serves `type` on `session`'s cluster, as last seen. */
  get(session: ContextSession, type: Pick<ResourceType, 'group' | 'resource'>): KubeObject | undefined {
    return this.watches.get(session)?.get(definitionName(type));
  }
}
