import { isForwardKind, type ForwardSpec } from './forward-target';
import type { PortForward } from './port-forward';
import type { SavedForward } from './port-forward-set';
import { localAddressOf } from './local-address';

/** What a restore did: each forward started (`svc/web 80 → 127.0.0.1:8080`) or why not. */
export interface RestoreOutcome {
  readonly started: string[];
  readonly failed: string[];
}

/** A saved entry as read back (another version of the extension may have written it): undefined when it is not one. */
export function savedForwardOf(value: unknown): SavedForward | undefined {
  const v = value as { context?: unknown; spec?: Partial<Record<keyof ForwardSpec, unknown>> } | undefined;
  const spec = v?.spec;
  if (typeof v?.context !== 'string' || !spec || !isForwardKind(spec.kind as string) || typeof spec.namespace !== 'string' || typeof spec.name !== 'string') return undefined;
  if (typeof spec.port !== 'number' && typeof spec.port !== 'string') return undefined;
  const localPort = typeof spec.localPort === 'number' ? spec.localPort : undefined;
  const address = typeof spec.address === 'string' ? spec.address : undefined;
  return { context: v.context, spec: { kind: spec.kind as ForwardSpec['kind'], namespace: spec.namespace, name: spec.name, port: spec.port, ...(localPort !== undefined ? { localPort } : {}), ...(address ? { address } : {}) } };
}

/**
 * Starts the forwards saved by the last window, one after the other: on the entry watching
 * their context (`entryOf`), each on its old local port when free (never insisting: a port
 * taken meanwhile gets another, said in the outcome). Never throws; every forward is accounted for.
 */
export async function restoreForwards(saved: readonly unknown[], entryOf: (context: string) => string | undefined, start: (entryId: string, spec: ForwardSpec) => Promise<PortForward>): Promise<RestoreOutcome> {
  const started: string[] = [];
  const failed: string[] = [];
  for (const raw of saved) {
    const s = savedForwardOf(raw);
    if (!s) {
      failed.push('an entry this version cannot read');
      continue;
    }
    const what = `${s.spec.kind} ${s.spec.namespace}/${s.spec.name} ${s.spec.port}`;
    const entryId = entryOf(s.context);
    if (!entryId) {
      failed.push(`${what}: its context is not watched`);
      continue;
    }
    try {
      const f = await start(entryId, { ...s.spec, exactLocalPort: false });
      const moved = s.spec.localPort && f.status.localPort !== s.spec.localPort ? ` (port ${s.spec.localPort} was taken)` : '';
      started.push(`${f.label} → ${localAddressOf(f.status)}${moved}`);
    } catch (err) {
      failed.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { started, failed };
}

/** The notifications a restore shows: never silent when anything was restored or could not be. */
export function restoreMessages(outcome: RestoreOutcome): { info?: string; warning?: string } {
  const plural = (n: number) => (n === 1 ? '' : 's');
  return {
    ...(outcome.started.length ? { info: `Restored ${outcome.started.length} port-forward${plural(outcome.started.length)} (kubeWatch.portForward.restore): ${outcome.started.join(', ')}.` } : {}),
    ...(outcome.failed.length ? { warning: `Could not restore ${outcome.failed.length} port-forward${plural(outcome.failed.length)}: ${outcome.failed.join('; ')}.` } : {}),
  };
}
