import type { ListKeys } from '../keyed-path';
import type { MergeShape } from './merge-shape';

/**
 * The merge keys of a type's lists, as the apply's intent names list items: read from the same
 * shape the three-way merge follows (the OpenAPI's keys for built-in types, a CRD's), so an apply
 * names a container by `name`, a port by `containerPort` and `protocol`, an ownerReference by
 * `uid`. A list the shape does not key (atomic, or a set) is undefined: sent whole.
 */
export function listKeysOf(shape: MergeShape): ListKeys {
  return (listPath) => {
    let at: MergeShape | undefined = shape;
    for (const segment of listPath) {
      at = segment === '*' ? at?.item() : at?.field(segment);
      if (!at) return undefined;
    }
    return at.list.kind === 'map' ? at.list.keys : undefined;
  };
}
