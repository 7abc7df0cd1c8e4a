import type { KubeObject } from '../informer';

/**
 * Objects a description shows besides its own, each followed by a watch of its own while the
 * description is open. Undefined fields are not known (yet): the describer says so rather than
 * printing an empty list as if it were true.
 */
export interface RelatedObjects {
  /** A Service's EndpointSlices (label `kubernetes.io/service-name`), once listed. */
  readonly endpointSlices?: readonly KubeObject[];
  /**
   * A Service's core Endpoints object, on a server that does not serve discovery.k8s.io/v1
   * EndpointSlices (or refuses them); null once known not to exist.
   */
  readonly endpoints?: KubeObject | null;
}
