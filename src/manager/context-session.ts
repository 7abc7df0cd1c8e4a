import type { Clock } from '../base';
import { AccessReviewCache } from '../cluster/access-review';
import { clusterKeyOf, contextFingerprint, type ContextFingerprint } from '../cluster/context-identity';
import { KubeConfigError, contextNamespace, readKubeConfigFiles, selectContext, type KubeConfigFiles } from '../cluster/kubeconfig-loader';
import { CredentialRegistry } from '../connection/credentials/credential-registry';
import type { ExecInteraction } from '../connection/credentials/exec-interaction';
import { SwitchableTransport } from '../connection/transport/switchable-transport';
import type { TransportFactory } from '../connection/transport/transport-factory';
import { StreamingListMemory } from '../informer/streaming-list-memory';
import type { KubeTransport } from '../informer';
import { errorLine } from './labels';
import type { EntryErrorKind } from './watch-entry';

/**
 * The manager's connection to one configured context ("" = the current-context), shared by all
 * its informers. Either usable (`transport` and `fingerprint` set, `problem` unset) or failed
 * (`problem` set: the kubeconfig or the context cannot be used; no transport).
 * Invariant: a usable session's transport is disposed exactly once, when the session is
 * replaced or the manager stops, and only after every informer on it has stopped.
 */
export interface ContextSession {
  /** As configured: a context name, or "" for the current-context. */
  readonly spec: string;
  /** The context the spec resolved to; "" when unknown. */
  readonly contextName: string;
  /**
   * The kubeconfig files the context was read from, as last synced (empty for the in-cluster
   * configuration or a failed session): what a CLI run for this context must be pointed at.
   */
  kubeconfigFiles: readonly string[];
  /** The server URL of the context's cluster, as the kubeconfig names it (never a credential). */
  readonly server?: string;
  readonly transport?: SwitchableTransport;
  /**
   * What the context's user may do (SelfSubjectAccessReviews through its transport), one cache per
   * session: a context switch gets a new one; new credentials forget its answers.
   */
  readonly access?: AccessReviewCache;
  /** The context's namespace in the kubeconfig (kubectl's default namespace), if it sets one. */
  readonly namespace?: string;
  /** The kubeconfig user of the context, for the write journal; never a credential. */
  userName?: string;
  /** Where this cluster has no streaming list (WatchList); shared by the session's informers. */
  readonly streamingListMemory?: StreamingListMemory;
  fingerprint?: ContextFingerprint;
  /** The cluster the context talks to (`clusterKeyOf`), on a usable session: its reachability is shared. */
  readonly clusterKey?: string;
  /** Why the session is unusable. */
  readonly problem?: { message: string; kind: Extract<EntryErrorKind, 'kubeconfig' | 'context'>; since: number };
  /**
   * Set on a usable session when a later kubeconfig reload failed: the session keeps running on
   * the last good configuration, and entries show this.
   */
  reloadProblem?: string;
  /** Set once the session is retired or dropped: nothing may be sent through it any more. */
  retired?: boolean;
}

/** What the session set asks of the manager when a session's life changes. */
export interface SessionHooks {
  /** Stops everything running on `session` (objects reported removed); the set disposes its transport after. */
  retire(session: ContextSession, reason: string): Promise<void>;
  /** Restarts everything running on `session`: its credentials were swapped under it. */
  restart(session: ContextSession, reason: string): Promise<void>;
  /** `session` now serves its spec: the slots of that spec must resolve again on it. */
  installed(session: ContextSession): void;
  /** `session`'s context is no longer configured (its slots are gone already): stop what else runs on it. */
  dropped(session: ContextSession, reason: string): Promise<void>;
}

export interface SessionSetOptions {
  clock: Clock;
  transportFactory: TransportFactory;
  /** The editor's proxy, handed to every transport. */
  editorProxy?: string;
  /** The environment exec credential plugins inherit; default process.env. */
  execEnv?: NodeJS.ProcessEnv;
  /** Where exec plugins that may log in meet the user. */
  execInteraction?: ExecInteraction;
}

/**
 * The sessions of the configured contexts, kept in line with the kubeconfig on disk: created,
 * kept, rotated (same cluster, new credentials) or replaced (another context or server).
 * Invariants: one session per configured spec; a replaced session is retired (everything on it
 * stopped) before its successor is installed; one credential provider per kubeconfig user,
 * shared by every context on it (an exec plugin runs once for all).
 */
export class SessionSet {
  private readonly sessions = new Map<string, ContextSession>();
  private readonly credentials: CredentialRegistry;

  constructor(
    private readonly o: SessionSetOptions,
    private readonly hooks: SessionHooks,
  ) {
    this.credentials = new CredentialRegistry({ clock: o.clock, env: o.execEnv, interaction: o.execInteraction });
  }

  get(spec: string): ContextSession | undefined {
    return this.sessions.get(spec);
  }

  values(): IterableIterator<ContextSession> {
    return this.sessions.values();
  }

  /** True when some configured context cannot be used. */
  get anyProblem(): boolean {
    return [...this.sessions.values()].some((s) => s.problem);
  }

  /** Ends the sessions of contexts `specs` no longer names and disposes their transports. */
  async dropUnconfigured(specs: readonly string[]): Promise<void> {
    for (const [spec, session] of [...this.sessions]) {
      if (specs.includes(spec)) continue;
      session.retired = true;
      await this.hooks.dropped(session, 'context no longer configured');
      session.access?.dispose();
      session.transport?.dispose();
      this.sessions.delete(spec);
    }
  }

  /** Creates, keeps, rotates or replaces the session of one configured context. */
  async sync(spec: string, files: KubeConfigFiles | KubeConfigError, reason: string): Promise<void> {
    const old = this.sessions.get(spec);
    if (files instanceof KubeConfigError) {
      if (old && !old.problem) {
        old.reloadProblem = `${files.message} (still using the configuration read before)`;
      } else {
        this.install(spec, this.failedSession(spec, files.message, 'kubeconfig'));
      }
      return;
    }
    let selected: ReturnType<typeof selectContext>;
    try {
      selected = selectContext(files.kc, spec || undefined, files.files);
    } catch (err) {
      const message = err instanceof KubeConfigError ? err.message : 'the context cannot be used';
      if (old && !old.problem) await this.retire(old, `${reason}: ${message}`);
      this.install(spec, this.failedSession(spec, message, 'context'));
      return;
    }
    const fingerprint = contextFingerprint(selected.kc);
    const target = { contextName: selected.contextName, clusterKey: clusterKeyOf(selected.kc), kubeConfig: selected.kc, credentials: this.credentials, editorProxy: this.o.editorProxy };
    if (old?.transport && old.contextName === selected.contextName && old.fingerprint?.cluster === fingerprint.cluster) {
      old.reloadProblem = undefined;
      old.kubeconfigFiles = files.files;
      if (old.fingerprint.user === fingerprint.user) return;
      // Same cluster, new credentials: keep the informers and their caches, relist on a new transport.
      let next;
      try {
        next = this.o.transportFactory(target);
      } catch (err) {
        await this.retire(old, `${reason}: the context cannot be used`);
        this.install(spec, this.failedSession(spec, errorLine(err, 'the context cannot be used'), 'context'));
        return;
      }
      const previous = old.transport.swap(next);
      old.fingerprint = fingerprint;
      old.userName = selected.kc.getCurrentUser()?.name;
      old.access?.invalidate();
      await this.hooks.restart(old, 'credentials changed in the kubeconfig');
      previous.dispose();
      return;
    }
    // New, switched to another context, or another cluster: start over on a new transport.
    if (old && !old.problem) await this.retire(old, `${reason}: ${describeSwitch(old, selected.contextName)}`);
    try {
      const transport = new SwitchableTransport(this.o.transportFactory(target));
      const streamingListMemory = new StreamingListMemory(this.o.clock);
      const access = new AccessReviewCache(transport, { clock: this.o.clock });
      const namespace = contextNamespace(files.kc, selected.contextName);
      const server = selected.kc.getCurrentCluster()?.server;
      this.install(spec, { spec, contextName: selected.contextName, kubeconfigFiles: files.files, server, namespace, transport, access, userName: selected.kc.getCurrentUser()?.name, streamingListMemory, fingerprint, clusterKey: target.clusterKey });
    } catch (err) {
      this.install(spec, this.failedSession(spec, errorLine(err, 'the context cannot be used'), 'context'));
    }
  }

  /** Disposes every session's transport (everything on them stopped already) and the credential providers. */
  disposeAll(): void {
    for (const session of this.sessions.values()) {
      session.retired = true;
      session.access?.dispose();
      session.transport?.dispose();
    }
    this.sessions.clear();
    this.credentials.dispose();
  }

  /** Stops everything on a session, then disposes its transport. */
  private async retire(session: ContextSession, reason: string): Promise<void> {
    session.retired = true;
    await this.hooks.retire(session, reason);
    session.access?.dispose();
    session.transport?.dispose();
  }

  private failedSession(spec: string, message: string, kind: 'kubeconfig' | 'context'): ContextSession {
    return { spec, contextName: spec, kubeconfigFiles: [], problem: { message, kind, since: this.o.clock.now() } };
  }

  /** Installs a session and rebinds its slots, which must resolve again on it. */
  private install(spec: string, session: ContextSession): void {
    this.sessions.set(spec, session);
    this.hooks.installed(session);
  }
}

/**
 * The kubeconfig as a sync reads it, or why it cannot be used. A kubeconfig with no context at
 * all is most likely caught mid-write (kubectl truncates, then writes): treated as unreadable
 * rather than as every context removed.
 */
export function readKubeconfigForSync(kubeconfigPath: string | undefined): KubeConfigFiles | KubeConfigError {
  try {
    const files = readKubeConfigFiles({ path: kubeconfigPath });
    if (files.kc.getContexts().length === 0) throw new KubeConfigError(`the kubeconfig in ${files.files.join(', ')} defines no contexts`);
    return files;
  } catch (err) {
    return err instanceof KubeConfigError ? err : new KubeConfigError('the kubeconfig cannot be read');
  }
}

function describeSwitch(old: ContextSession, contextName: string): string {
  return old.contextName !== contextName ? `switched from context "${old.contextName}" to "${contextName}"` : `the server of context "${contextName}" changed`;
}

/** A session's connection for consumers: its transport (shared with its watches), access reviews and namespace (where a feed may watch), or why it cannot be used. */
export function sessionConnection(session: ContextSession): { transport: KubeTransport; access?: AccessReviewCache; namespace?: string } | { problem: string } {
  if (session.transport) return { transport: session.transport, access: session.access, namespace: session.namespace };
  return { problem: session.problem?.message ?? 'the context cannot be used' };
}
