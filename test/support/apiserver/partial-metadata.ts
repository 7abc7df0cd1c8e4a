/**
 * Metadata-only answers, as kube-apiserver gives them to client-go's metadata client
 * (`Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`
 * for a LIST, `...;as=PartialObjectMetadata;...` for a GET or WATCH): objects reduced to
 * `kind: PartialObjectMetadata`, `apiVersion: meta.k8s.io/v1` and their whole `metadata`
 * (managedFields included); a list becomes a PartialObjectMetadataList with the list's metadata.
 */
import type { IncomingMessage } from 'node:http';
import type { KubeObjectJson } from './types';

/** What the Accept header asks for: 'list', 'object', or undefined for whole objects (or a Table). */
export function partialMetadataWanted(req: IncomingMessage): 'list' | 'object' | undefined {
  for (const range of String(req.headers.accept ?? '').split(',')) {
    const params = new Map(
      range
        .split(';')
        .slice(1)
        .map((p) => p.trim().split('=') as [string, string]),
    );
    if (params.get('g') !== 'meta.k8s.io' || (params.get('v') !== 'v1' && params.get('v') !== 'v1beta1')) continue;
    if (params.get('as') === 'PartialObjectMetadataList') return 'list';
    if (params.get('as') === 'PartialObjectMetadata') return 'object';
  }
  return undefined;
}

export function toPartialObject(obj: KubeObjectJson): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

export function toPartialList(list: object): Record<string, unknown> {
  const { items, metadata } = list as { items?: KubeObjectJson[]; metadata?: Record<string, unknown> };
  return { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: metadata ?? {}, items: (items ?? []).map(toPartialObject) };
}
