import { contextNamespace, KubeConfigError, loadKubeConfig } from '../cluster/kubeconfig-loader';
import { resolutionWaitEvents, resolveWithRetry } from '../cluster/resolve-with-retry';
import { AbortedError, type Clock } from '../base';
import { Informer, resourceTypeName, type ResourceType } from '../informer';
import { KubeConfigTransport } from '../connection/transport/kubeconfig-transport';
import { clusterKeyOf } from '../cluster/context-identity';
import { ClusterRegistry } from '../connection/registry/cluster-registry';
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
 * `kube-watch watch RESOURCE`: one informer on one transport, every handler event and lifecycle
 * event as a JSON line, and once `stop` fires the informer stopped, the transport disposed and
 * the snapshot of the cache as the last line.
 * Throws KubeConfigError or UnknownResourceError (exit status 2) before anything is watched;
 * once watching, it only returns when `stop` fires. Network failures and refusals during
 * discovery are retried like the informer retries them, and reported as lifecycle lines.
 */
export async function runWatch(args: WatchArgs, io: WatchIo): Promise<void> {
  const { out, clock, stop } = io;
  const { kc, contextName } = loadKubeConfig({ path: args.kubeconfig, context: args.context });
  const namespace = args.allNamespaces ? undefined : (args.namespace ?? contextNamespace(kc, contextName) ?? 'default');

  let informer: Informer | undefined;
  // The CLI's one cluster still gets a registry: its wake detector verifies the connection after a suspend.
  const registry = io.clusterRegistry ?? new ClusterRegistry();
  const resumed = registry.onResumed((awayMs) => {
    if (informer) out.write(lifecycleLine({ type: 'resumed', awayMs, at: clock.now() }, informer.resourceVersion));
  });
  let transport: KubeConfigTransport;
  const lease = registry.acquire(clusterKeyOf(kc));
  try {
    transport = new KubeConfigTransport(kc, { lease });
  } catch (err) {
    lease.dispose();
    resumed.dispose();
    // The engine's messages here name the cluster and what is wrong with its address, nothing else.
    throw new KubeConfigError(`context "${contextName}": ${err instanceof Error ? err.message : 'unusable cluster'}`);
  }

  try {
    let type: ResourceType;
    try {
      type = await resolveWithRetry(transport, args.resource, {
        clock,
        signal: stop,
        unknownIsFinal: true,
        onWaiting: (wait) => {
          for (const e of resolutionWaitEvents(wait, clock.now())) out.write(lifecycleLine(e, ''));
        },
      });
    } catch (err) {
      if (err instanceof AbortedError) {
        out.write(snapshotLine([]));
        return;
      }
      throw err;
    }

    const running = new Informer({
      transport,
      type,
      namespace,
      labelSelector: args.labelSelector,
      fieldSelector: args.fieldSelector,
      timeoutSeconds: args.timeoutSeconds,
      streamingList: args.streamingList,
      clock,
      name: `${contextName}/${resourceTypeName(type)}${type.namespaced && namespace ? ` in ${namespace}` : ''}`,
    });
    informer = running;
    running.addHandler({
      name: 'json lines',
      onAdd: (obj) => out.write(objectEventLine('add', obj)),
      onUpdate: (_old, obj) => out.write(objectEventLine('update', obj)),
      onDelete: (obj, finalStateUnknown) => out.write(objectEventLine('delete', obj, finalStateUnknown)),
    });
    running.onLifecycle((e) => out.write(lifecycleLine(e, running.resourceVersion)));
    running.start();

    await untilAborted(stop);
    await running.stop();
    out.write(snapshotLine(running.list()));
  } finally {
    await informer?.stop();
    transport.dispose();
    resumed.dispose();
    if (!io.clusterRegistry) registry.dispose();
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
