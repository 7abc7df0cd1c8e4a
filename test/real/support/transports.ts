import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigTransport } from '../../../src/connection/transport/kubeconfig-transport';
import type { ControlPlane } from './control-plane';

/**
 * Our transport to a control plane, as one of its users, over HTTP/2 or HTTP/1.1: what the
 * extension writes through. Call in a `describe`; every transport made is disposed after each test.
 */
export function useTransports(): (plane: ControlPlane, user: Parameters<ControlPlane['kubeconfig']>[0], http2: boolean) => KubeConfigTransport {
  const made: KubeConfigTransport[] = [];
  afterEach(() => {
    for (const t of made.splice(0)) t.dispose();
  });
  return (plane, user, http2) => {
    const kc = new KubeConfig();
    kc.loadFromString(plane.kubeconfig(user));
    const t = new KubeConfigTransport(kc, { http2 });
    made.push(t);
    return t;
  };
}
