/**
 * The `ephemeralcontainers` subresource of a Pod as kube-apiserver 1.34.9 serves it
 * (test/real/debug.real.ts shows the same on the real server), and the kubelet that starts an
 * ephemeral container:
 * - `GET pods/NAME/ephemeralcontainers` answers the whole Pod;
 * - `PATCH` (strategic, merge, JSON patch) or `PUT` applies to the Pod and keeps only the change
 *   of `spec.ephemeralContainers` (anything else in the body is ignored, as the real strategy
 *   does); a `metadata.resourceVersion` that is not the current one is 409, a `metadata.uid` that
 *   is not the Pod's is 422 "field is immutable" (twice, as the real server lists it);
 * - validation with the real server's words: an image is required, a name is unique among all
 *   the Pod's containers, the target container must exist, an existing ephemeral container may
 *   not be removed or changed (the real server appends a diff of the Go struct to "may not be
 *   changed"; only its first line is reproduced here);
 * - defaults as the real server fills them (terminationMessagePath and -Policy, imagePullPolicy
 *   `Always` for an untagged or `:latest` image, else `IfNotPresent`, `resources: {}`);
 * - `supported = false`: the subresource does not exist (a server without the feature): the
 *   plain 404 "the server could not find the requested resource" with empty details, which is
 *   how kubectl tells it from a missing Pod.
 * The simulated kubelet: an ephemeral container of a Running Pod is reported Waiting
 * (ContainerCreating), then Running, with a real process behind it (`startContainer`, a shell
 * under a pseudo-terminal that `attach` connects to); when that process ends the container is
 * Terminated with its exit code. Timers are the server's own (cleared when it closes).
 */
import type { KubeObjectJson } from './types';
import type { WriteCall, WriteServerParts } from './writes';
import type { HistoryEvent } from './store';
import { objectKey } from './store';
import { qualifiedName } from './resources';
import { PatchError, jsonPatch, mergePatch, strategicMergePatch } from './patches';
import { failure, resourceNotFound, type StatusJson } from './status';

type Container = Record<string, unknown> & { name?: string; image?: string; targetContainerName?: string };
type PodSpec = { containers?: Container[]; initContainers?: Container[]; ephemeralContainers?: Container[] };
type ContainerStatus = Record<string, unknown> & { name: string };

/** What the subresource and its kubelet need of the server. */
export interface EphemeralHost {
  onChange(listener: (change: HistoryEvent) => void): () => void;
  get(namespace: string, name: string): KubeObjectJson | undefined;
  /** Writes the Pod's status as the kubelet does (a MODIFIED event). */
  writeStatus(pod: KubeObjectJson): void;
  /** Starts the container's process; `onExit` runs with its exit code when it ends. */
  startContainer(pod: KubeObjectJson, container: Container, onExit: (code: number) => void): void;
  readonly timers: Set<NodeJS.Timeout>;
}

export class EphemeralContainers {
  /** False: the server has no such subresource (404 with empty details). */
  supported = true;
  /** Milliseconds the kubelet takes to pull and start an ephemeral container. */
  startDelayMs = 30;
  private readonly starting = new Set<string>();
  /** Starts held back by `holdStarts` (the image still being pulled), run on release. */
  private held: Array<() => void> | undefined;

  constructor(private readonly host: EphemeralHost) {
    host.onChange((c) => {
      if (c.resource === 'pods' && c.type !== 'DELETED') this.kubelet(c.object);
    });
  }

  /** The write handler (PATCH, PUT) of `pods/NAME/ephemeralcontainers`. */
  readonly writes = (call: WriteCall, server: WriteServerParts): boolean => {
    const { route, def } = call;
    if (route.subresource !== 'ephemeralcontainers' || !def || def.group !== '' || def.resource !== 'pods') return false;
    if (route.namespace === undefined || route.name === undefined) return false;
    if (!this.supported) return reply(call, resourceNotFound());
    if (call.method !== 'PATCH' && call.method !== 'PUT') return false;
    const key = objectKey(route.namespace, route.name);
    const current = server.store.peek(qualifiedName(def), key);
    if (!current) return reply(call, failure(404, 'NotFound', `pods "${route.name}" not found`, { name: route.name, kind: 'pods' }));
    let wanted: KubeObjectJson;
    try {
      wanted = desiredPod(call, current);
    } catch (err) {
      const code = err instanceof PatchError ? err.code : 400;
      return reply(call, failure(code, code === 422 ? 'Invalid' : 'BadRequest', (err as Error).message));
    }
    const rv = wanted.metadata?.resourceVersion;
    if (rv && rv !== current.metadata.resourceVersion) {
      return reply(call, failure(409, 'Conflict', `Operation cannot be fulfilled on pods "${route.name}": the object has been modified; please apply your changes to the latest version and try again`, { name: route.name, kind: 'pods' }));
    }
    const uid = wanted.metadata?.uid;
    if (uid && uid !== current.metadata.uid) {
      const cause = { reason: 'FieldValueInvalid', message: `Invalid value: "${uid}": field is immutable`, field: 'metadata.uid' };
      return reply(call, invalid(route.name, [cause, cause]));
    }
    const before = ((current.spec ?? {}) as PodSpec).ephemeralContainers ?? [];
    const after = (((wanted.spec ?? {}) as PodSpec).ephemeralContainers ?? []).map((c) => withDefaults(c, before));
    const causes = validate(current.spec as PodSpec, before, after);
    if (causes.length > 0) return reply(call, invalid(route.name, causes));
    if (call.query.dryRun === 'All' || JSON.stringify(before) === JSON.stringify(after)) {
      call.reply(200, { kind: 'Pod', apiVersion: 'v1', ...current, spec: { ...(current.spec as object), ephemeralContainers: after } });
      return true;
    }
    const next = structuredClone(current);
    next.spec = { ...(next.spec as object), ephemeralContainers: after };
    const nextRv = server.store.nextRv();
    next.metadata.resourceVersion = String(nextRv);
    server.store.commit({ rv: nextRv, resource: qualifiedName(def), key, type: 'MODIFIED', object: next, prev: current });
    call.reply(200, { kind: 'Pod', apiVersion: 'v1', ...next });
    return true;
  };

  /**
   * Keeps new ephemeral containers Waiting (ContainerCreating) until the returned release runs,
   * as a slow image pull would: a test sees the watch show them waiting, then running.
   */
  holdStarts(): () => void {
    const held: Array<() => void> = (this.held ??= []);
    return () => {
      if (this.held === held) this.held = undefined;
      for (const run of held.splice(0)) this.later(run);
    };
  }

  /** Starts the ephemeral containers of a Running Pod that have no status yet. */
  private kubelet(pod: KubeObjectJson): void {
    if ((pod.status as { phase?: string } | undefined)?.phase !== 'Running' || pod.metadata.deletionTimestamp) return;
    const statuses = ((pod.status as { ephemeralContainerStatuses?: ContainerStatus[] }).ephemeralContainerStatuses ?? []).map((s) => s.name);
    for (const c of ((pod.spec ?? {}) as PodSpec).ephemeralContainers ?? []) {
      const id = `${pod.metadata.uid}/${c.name}`;
      if (statuses.includes(String(c.name)) || this.starting.has(id)) continue;
      this.starting.add(id);
      // A listener runs inside the change: the kubelet's writes come after it, as the real ones do.
      this.later(() => {
        this.setState(pod, String(c.name), { waiting: { reason: 'ContainerCreating' } }, c);
        const run = () => {
          const now = this.current(pod);
          if (!now) return;
          this.host.startContainer(now, c, (code) => this.setState(now, String(c.name), { terminated: { exitCode: code, reason: code === 0 ? 'Completed' : 'Error', startedAt: undefined, finishedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z') } }, c));
          this.setState(now, String(c.name), { running: { startedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z') } }, c);
        };
        if (this.held) this.held.push(run);
        else this.later(run);
      });
    }
  }

  private current(pod: KubeObjectJson): KubeObjectJson | undefined {
    const now = this.host.get(pod.metadata.namespace ?? '', pod.metadata.name);
    return now && now.metadata.uid === pod.metadata.uid ? now : undefined;
  }

  private setState(pod: KubeObjectJson, name: string, state: Record<string, unknown>, container: Container): void {
    const now = this.current(pod);
    if (!now) return;
    const status = structuredClone((now.status ?? {}) as { ephemeralContainerStatuses?: ContainerStatus[] });
    const list = (status.ephemeralContainerStatuses ?? []).filter((s) => s.name !== name);
    const running = 'running' in state;
    list.push({ name, state: JSON.parse(JSON.stringify(state)) as unknown, lastState: {}, ready: false, restartCount: 0, image: container.image, imageID: running || 'terminated' in state ? `docker.io/library/${String(container.image)}@sha256:${'0'.repeat(64)}` : '', ...(running || 'terminated' in state ? { containerID: `containerd://${name}-${String(now.metadata.uid).slice(0, 8)}` } : {}), started: running });
    status.ephemeralContainerStatuses = list;
    this.host.writeStatus({ ...now, status });
  }

  private later(run: () => void): void {
    const timer = setTimeout(() => {
      this.host.timers.delete(timer);
      run();
    }, this.startDelayMs);
    this.host.timers.add(timer);
  }
}

function reply(call: WriteCall, status: StatusJson): true {
  call.reply(status.code, status);
  return true;
}

function invalid(name: string, causes: Array<{ reason: string; message: string; field: string }>): StatusJson {
  const first = causes[0];
  return failure(422, 'Invalid', `Pod "${name}" is invalid: ${causes.length === 1 || causes.every((c) => c.message === first.message && c.field === first.field) ? `${first.field}: ${first.message}` : `[${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}]`}`, { name, kind: 'Pod', causes });
}

function desiredPod(call: WriteCall, current: KubeObjectJson): KubeObjectJson {
  const body: unknown = JSON.parse(call.body.toString('utf8') || 'null');
  if (call.method === 'PUT') return body as KubeObjectJson;
  switch (call.contentType) {
    case 'application/merge-patch+json':
      return mergePatch(current, body) as KubeObjectJson;
    case 'application/strategic-merge-patch+json':
      return strategicMergePatch(current, body) as KubeObjectJson;
    case 'application/json-patch+json':
      return jsonPatch(current, body) as KubeObjectJson;
    default:
      throw new PatchError(400, `the content type ${call.contentType || '(none)'} is not a patch`);
  }
}

/** The real server's defaults for a new ephemeral container (existing ones are kept as they are). */
function withDefaults(c: Container, before: Container[]): Container {
  if (before.some((b) => b.name === c.name)) return c;
  const image = String(c.image ?? '');
  const tag = /:([^/:@]+)$/.exec(image)?.[1];
  const pull = !image || image.includes('@') ? 'IfNotPresent' : !tag || tag === 'latest' ? 'Always' : 'IfNotPresent';
  return { resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: pull, ...c };
}

function validate(spec: PodSpec, before: Container[], after: Container[]): Array<{ reason: string; message: string; field: string }> {
  const causes: Array<{ reason: string; message: string; field: string }> = [];
  const regular = [...(spec.containers ?? []), ...(spec.initContainers ?? [])].map((c) => c.name);
  const seen = new Set(regular);
  after.forEach((c, i) => {
    const at = `spec.ephemeralContainers[${i}]`;
    if (!c.name) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${at}.name` });
    else if (seen.has(c.name)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: "${c.name}"`, field: `${at}.name` });
    else seen.add(c.name);
    if (!c.image) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${at}.image` });
    if (c.targetContainerName && !(spec.containers ?? []).some((t) => t.name === c.targetContainerName)) {
      causes.push({ reason: 'FieldValueNotFound', message: `Not found: "${c.targetContainerName}"`, field: `${at}.targetContainerName` });
    }
  });
  for (const old of before) {
    const now = after.find((c) => c.name === old.name);
    const words = !now ? 'removed' : JSON.stringify(now) !== JSON.stringify(old) ? 'changed' : undefined;
    if (words) causes.push({ reason: 'FieldValueForbidden', message: `Forbidden: existing ephemeral containers "${old.name}" may not be ${words}\n`, field: 'spec.ephemeralContainers' });
  }
  return causes;
}
