import type { ReachabilityChange } from '../connection/reachability/cluster-reachability';
import type { LifecycleEvent } from '../informer';

/** The log's words for a reachability transition of the cluster. */
export function reachabilityEvent(change: ReachabilityChange): Extract<LifecycleEvent, { type: 'reachability' }> {
  if (change.type === 'unreachable') {
    const detail = change.probing ? 'probing it (a TCP and TLS handshake about every second, no request) to bring every watch back as soon as it answers' : 'it cannot be probed through a SOCKS proxy: each watch retries at its own backoff';
    return { type: 'reachability', reachable: false, detail };
  }
  return { type: 'reachability', reachable: true, detail: `${change.by === 'probe' ? 'it answered the probe' : 'it answered a request'}: ${change.waiting} waiting watch${change.waiting === 1 ? '' : 'es'} retry now` };
}
