/**
 * The ports a forward can be asked for, from the object the user picked: a Pod's declared
 * container ports, a Service's ports (with the target each maps to), a workload's pod template
 * ports. Pure; the VS Code picker shows them and offers "another port" too.
 */
import type { KubeObject } from '../../informer';
import type { ForwardKind } from '../../port-forward';

export interface PortChoice {
  /** `80/http` */
  readonly label: string;
  /** `→ pod port http`, `container app` */
  readonly description?: string;
  /** What the forward asks for: the Service's port, else the container port. */
  readonly port: number;
}

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function containerPortChoices(podSpec: Json): PortChoice[] {
  const out: PortChoice[] = [];
  for (const c of arr(podSpec.containers).map(rec)) {
    for (const p of arr(c.ports).map(rec)) {
      if (typeof p.containerPort !== 'number' || (p.protocol ?? 'TCP') !== 'TCP') continue;
      out.push({ label: `${p.containerPort}${typeof p.name === 'string' ? `/${p.name}` : ''}`, description: `container ${String(c.name ?? '')}`, port: p.containerPort });
    }
  }
  return out;
}

export function portChoicesOf(kind: ForwardKind, obj: KubeObject): PortChoice[] {
  const spec = rec(obj.spec);
  if (kind === 'Pod') return containerPortChoices(spec);
  if (kind === 'Service') {
    return arr(spec.ports)
      .map(rec)
      .filter((p) => typeof p.port === 'number' && (p.protocol ?? 'TCP') === 'TCP')
      .map((p) => ({ label: `${String(p.port)}${typeof p.name === 'string' ? `/${p.name}` : ''}`, description: `→ pod port ${String(p.targetPort ?? p.port)}`, port: p.port as number }));
  }
  return containerPortChoices(rec(rec(spec.template).spec));
}

const PORT_HINT = 'a port is a number from 1 to 65535 (empty: the same port when free; 0: any free port)';

/** The local port as typed: empty is the default (the remote port when free); 0 any free port; a number 1-65535 exactly that; else why not. */
export function parseLocalPort(text: string): { port?: number; exact: boolean } | string {
  const t = text.trim();
  if (t === '') return { exact: false };
  if (!/^\d+$/.test(t)) return PORT_HINT;
  const n = Number(t);
  if (n > 65535) return PORT_HINT;
  return n === 0 ? { port: 0, exact: false } : { port: n, exact: true };
}
