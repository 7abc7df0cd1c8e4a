/**
 * The simulated cluster's pods write their logs: about once a second, every running container of
 * every Running pod appends one line that reads like its program's (nginx access lines for `web`,
 * structured JSON for `api`, CoreDNS queries, Prometheus and Grafana, Postgres checkpoints, the
 * ledger's settlements), so "Follow Logs" has something live to follow. Lines go through the API
 * server's PodLogs, as the kubelet's would. Invariant: one timer while started, none after stop().
 */
import type { FakeApiServer, KubeObjectJson } from '../../test/support/apiserver';

interface PodShape {
  spec?: { containers?: Array<{ name: string }> };
  status?: { phase?: string; containerStatuses?: Array<{ name: string; state?: { running?: unknown } }> };
}

const PATHS = ['/', '/cart', '/checkout', '/api/products?page=2', '/static/app.3f9c2.js', '/healthz'];
const STATUSES = [200, 200, 200, 200, 304, 404];

/** One realistic line for `pod`'s container on step `n` (deterministic, so runs read alike). */
export function simulatedLogLine(namespace: string, pod: string, container: string, n: number, at: number): string {
  const iso = new Date(at).toISOString();
  const app = pod.replace(/-[a-z0-9]{8,10}-[a-z0-9]{5}$/, '').replace(/-\d+$/, '');
  switch (app) {
    case 'web':
      return `10.244.0.${(n % 200) + 10} - - [${iso}] "GET ${PATHS[n % PATHS.length]} HTTP/1.1" ${STATUSES[n % STATUSES.length]} ${512 + ((n * 37) % 4096)} "-" "Mozilla/5.0"`;
    case 'api':
      return JSON.stringify({ time: iso, level: n % 9 === 0 ? 'warn' : 'info', msg: n % 9 === 0 ? 'slow query' : 'request served', route: '/v1/orders', status: 200, duration_ms: 3 + ((n * 13) % 80) });
    case 'coredns':
      return `[INFO] 10.244.0.${(n % 50) + 2}:${40000 + ((n * 7) % 9999)} - ${n} "A IN web.shop.svc.cluster.local. udp 45 false 512" NOERROR qr,aa,rd 98 0.000${(n % 9) + 1}s`;
    case 'prometheus':
      return `ts=${iso} caller=scrape.go:1347 level=debug component="scrape manager" scrape_pool=kubernetes-pods msg="Scrape completed" samples=${1000 + (n % 300)}`;
    case 'grafana':
      return `logger=context userId=1 orgId=1 t=${iso} level=info msg="Request Completed" method=GET path=/api/dashboards/uid/k8s status=200 duration=${(n % 40) + 2}ms`;
    case 'postgres':
      return `${iso.replace('T', ' ').replace('Z', ' UTC')} [1] LOG:  checkpoint ${n % 2 ? 'starting: time' : `complete: wrote ${n % 50} buffers`}`;
    case 'ledger':
      return `${iso} INFO  settlement window=15m batch=${n} entries=${(n * 17) % 120} currency=EUR`;
    default:
      return `${iso} ${namespace}/${pod}[${container}] tick ${n}`;
  }
}

export class PodLogWriter {
  private timer: NodeJS.Timeout | undefined;
  private step = 0;

  constructor(private readonly server: FakeApiServer) {}

  /** Starts writing a line per running container every `everyMs`. Starting twice restarts it. */
  start(everyMs = 1000): void {
    this.stop();
    this.timer = setInterval(() => this.writeOnce(), everyMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round: a line for every running container of every Running pod. */
  writeOnce(at = Date.now()): void {
    const n = ++this.step;
    for (const pod of this.server.list('pods') as KubeObjectJson[]) {
      const shape = pod as unknown as PodShape;
      if (shape.status?.phase !== 'Running') continue;
      const namespace = pod.metadata.namespace ?? '';
      const name = pod.metadata.name;
      for (const c of shape.spec?.containers ?? []) {
        const status = shape.status.containerStatuses?.find((s) => s.name === c.name);
        if (status && !status.state?.running) continue;
        this.server.podLogs.append(namespace, name, c.name, simulatedLogLine(namespace, name, c.name, n, at), at);
      }
    }
  }
}
