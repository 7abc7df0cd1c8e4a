import { resolveResourceType } from '../../cluster/discovery';
import type { KubeTransport, ResourceType } from '../../informer';

/** What resolving a kind needs of the watch manager: its entries and their transports. */
export interface KindResolverSource {
  entries(): readonly { id: string; context: string }[];
  transportOf(id: string): KubeTransport | undefined;
}

/** Discovery answers within this, or the kind is said unknown. */
const RESOLVE_TIMEOUT_MS = 10_000;

/**
 * A k9s-style `:name` the watched and catalogued types do not know, resolved as kubectl resolves
 * it, through the server's discovery on that context: a CRD's short name (`:cert`), its singular,
 * its kind, `name.group`. Undefined when nothing on the context is connected, the server knows no
 * such type, or discovery does not answer in time; never throws.
 */
export async function resolveKindOnServer(source: KindResolverSource, context: string, text: string): Promise<ResourceType | undefined> {
  const spelling = text.trim().replace(/^:/, '').trim();
  if (spelling === '') return undefined;
  const entry = source.entries().find((e) => e.context === context && source.transportOf(e.id));
  const transport = entry && source.transportOf(entry.id);
  if (!transport) return undefined;
  return resolveResourceType(transport, spelling, AbortSignal.timeout(RESOLVE_TIMEOUT_MS)).catch(() => undefined);
}
