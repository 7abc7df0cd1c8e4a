import type { KubeObject } from './kube-object';

/**
 * Applied to every object before it is cached, like client-go's TransformFunc. It may mutate
 * and return the object it is given (objects come fresh from JSON.parse and are not shared).
 */
export type Transform = (obj: KubeObject) => KubeObject;

/** The default: drop `metadata.managedFields`, often half an object's size and never shown. */
export const dropManagedFields: Transform = (obj) => {
  if (obj.metadata.managedFields !== undefined) delete obj.metadata.managedFields;
  return obj;
};
