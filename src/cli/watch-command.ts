import { AbortedError, type Clock } from '../base';
import { contextNamespace, KubeConfigError, loadKubeConfig } from '../cluster/kubeconfig-loader';
import { resolutionWaitEvents, resolveWithRetry } from '../cluster/resolve-with-retry';
import { ClusterRegistry } from '../connection/registry/cluster-registry';
import { resourceTypeName, type Informer, type KubeObject, type KubeTransport, type ResourceType } from '../informer';
import { WatchManager, type WatchConfig } from '../manager';
import type { WatchArgs } from './args';
import type { JsonLinesWriter } from './json-lines';
import { lifecycleLine, objectEventLine, snapshotLine } from './output-lines';

export interface WatchIo {
  out: JsonLinesWriter;
  clock: Clock;
  /** Fires to end the watch (a signal, or standard output gone). */
  stop: AbortSignal;
  /** Shares the cluster's reachability and wake detection; default one of its own, disposed at the end. */
  clusterRegistry?: ClusterRegistry;
}

/**
 * `kube-watch watch RESOURCE[,RESOURCE...]`: the watch manager the extension uses, on one
 * context, one informer per type on the context's one connection; every handler event and
 * lifecycle event as a JSON line naming its type; once `stop` fires, everything stopped and one
 * snapshot line per type (in the order given) as the last lines.
 * Throws KubeConfigError or UnknownResourceError (exit status 2) before anything is watched:
 * every type is resolved first, so one unknown type in the list watches nothing. Network
 * failures and refusals during discovery are retried, and reported as lifecycle lines of the
 * type as spelled. Once watching, it only returns when `stop` fires.
 */
export async function runWatch(args: WatchArgs, io: WatchIo): Promise<void> {
  const { out, clock } = io;
  const { kc, contextName } = loadKubeConfig({ path: args.kubeconfig, context: args.context });
  const namespace = args.allNamespaces ? undefined : (args.namespace ?? contextNamespace(kc, contextName) ?? 'default');
  const spec = args.context ?? '';
  const config: WatchConfig = {
    contexts: [spec],
    resources: [],
    namespaces: namespace ? [namespace] : [],
    labelSelector: args.labelSelector,
    fieldSelector: args.fieldSelector,
    timeoutSeconds: args.timeoutSeconds,
    kubeconfigPath: args.kubeconfig,
    streamingList: args.streamingList,
  };
  // The CLI's one cluster still gets a registry: its wake detector verifies the connection after a suspend.
  const registry = io.clusterRegistry ?? new ClusterRegistry();
  const manager = new WatchManager(config, { clock, clusterRegistry: registry });
  try {
    await manager.start();
    const connection = manager.contextConnection(spec);
    if (!connection || 'problem' in connection) {
      // The messages here name the context and what is wrong with it, nothing else.
      throw new KubeConfigError(`context "${contextName}": ${connection && 'problem' in connection ? connection.problem : 'unusable cluster'}`);
    }
    const types = await resolveAll(connection.transport, args.resources, io);
    if (!types) {
      for (const spelling of args.resources) out.write(snapshotLine(spelling, []));
      return;
    }
    await watchUntilStopped(manager, config, types, io);
  } finally {
    await manager.stop();
    manager.dispose();
    if (!io.clusterRegistry) registry.dispose();
  }
}

/**
 * Resolves every spelling on the context's connection, at once; undefined when `stop` fired
 * first. The first type found unknown ends the others and is thrown.
 */
async function resolveAll(transport: KubeTransport, spellings: readonly string[], io: WatchIo): Promise<Map<string, ResourceType> | undefined> {
  const { out, clock, stop } = io;
  const resolving = new AbortController();
  const onStop = () => resolving.abort();
  stop.addEventListener('abort', onStop, { once: true });
  if (stop.aborted) onStop();
  try {
    const types = await Promise.all(
      spellings.map((spelling) =>
        resolveWithRetry(transport, spelling, {
          clock,
          signal: resolving.signal,
          unknownIsFinal: true,
          onWaiting: (wait) => {
            for (const e of resolutionWaitEvents(wait, clock.now())) out.write(lifecycleLine(spelling, e, ''));
          },
        }).catch((err: unknown) => {
          resolving.abort(); // one failure ends the others: nothing is watched
          throw err;
        }),
      ),
    );
    return new Map(spellings.map((s, i) => [s, types[i]]));
  } catch (err) {
    if (stop.aborted && err instanceof AbortedError) return undefined;
    // Another type's failure aborted this one: report the failure, not the abort.
    throw err;
  } finally {
    stop.removeEventListener('abort', onStop);
  }
}

/** Watches the resolved types (each once, by its first spelling) until `stop` fires, then writes the snapshots. */
async function watchUntilStopped(manager: WatchManager, config: WatchConfig, types: Map<string, ResourceType>, io: WatchIo): Promise<void> {
  const { out, stop } = io;
  const spellingOf = new Map<string, string>();
  for (const [spelling, type] of types) if (!spellingOf.has(resourceTypeName(type))) spellingOf.set(resourceTypeName(type), spelling);
  const nameBySpelling = new Map([...spellingOf].map(([name, spelling]) => [spelling, name]));
  /**
   * Per entry, its type as the lines name it (the resolved type's, which stays put when its
   * version moves) and its informer; kept after the entry goes, for the lines of its stop.
   */
  const known = new Map<string, { name: string; informer?: Informer }>();
  const learn = (ids: readonly string[]) => {
    for (const id of ids) {
      const e = manager.entry(id);
      if (e) known.set(id, { name: (e.type && resourceTypeName(e.type)) || nameBySpelling.get(e.resource) || e.resource, informer: e.informer });
    }
  };
  const nameOf = (id: string) => known.get(id)?.name ?? '';
  let stopping = false;
  const snapshots = new Map<string, KubeObject[]>();
  const subscriptions = [
    manager.onDidChangeEntries(({ added, changed }) => learn([...added, ...changed])),
    manager.addHandler({
      onAdd: (id, obj) => out.write(objectEventLine(nameOf(id), 'add', obj)),
      onUpdate: (id, _old, obj) => out.write(objectEventLine(nameOf(id), 'update', obj)),
      onDelete: (id, obj, finalStateUnknown) => out.write(objectEventLine(nameOf(id), 'delete', obj, finalStateUnknown)),
    }),
    manager.onLifecycle((id, e) => out.write(lifecycleLine(nameOf(id), e, known.get(id)?.informer?.resourceVersion ?? ''))),
    manager.onObjectsRemoved(({ entryId, objects }) => {
      const name = nameOf(entryId);
      // Stopping: the informer's last cache. Before: the type is gone (F30), its objects with it.
      if (stopping) snapshots.set(name, [...(snapshots.get(name) ?? []), ...objects]);
      else for (const obj of objects) out.write(objectEventLine(name, 'delete', obj, true));
    }),
  ];
  try {
    await manager.update({ ...config, resources: [...spellingOf.values()] });
    await untilAborted(stop);
    stopping = true;
    await manager.stop();
    for (const name of spellingOf.keys()) out.write(snapshotLine(name, snapshots.get(name) ?? []));
  } finally {
    for (const s of subscriptions) s.dispose();
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
