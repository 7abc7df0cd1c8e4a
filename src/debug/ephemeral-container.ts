import { ApiError } from '../base';
import type { KubeObject, KubeTransport } from '../informer';
import { StreamRefused } from '../shell';

/**
 * An ephemeral debug container as `kubectl debug -it POD --image=IMAGE --target=CONTAINER`
 * (kubectl 1.34, default profile "general") adds it: named `debugger-` and five characters of
 * kubectl's alphabet, unique among the pod's containers; stdin and a TTY; its termination
 * message read from its file; SYS_PTRACE added, so that a debugger can trace the target's
 * processes; `targetContainerName` puts it into the target's process namespace.
 * The patch is the strategic merge patch kubectl computes (`CreateTwoWayMergePatch` of the pod
 * and the pod with the container appended, keys sorted as Go marshals a map): the new container
 * alone, with `$setElementOrder/ephemeralContainers` when the pod had some already; sent to
 * `pods/NAME/ephemeralcontainers`. Kube Watch adds the pod's uid in `metadata` (WRITES.md W02): a
 * pod deleted and created again under the same name is refused by the server (422 "field is
 * immutable") instead of getting the container.
 */

/** What the user chose. */
export interface DebugRequest {
  readonly image: string;
  /** The container whose process namespace the debug container joins; none: the pod's own. */
  readonly target?: string;
}

/** The ephemeral container as kubectl builds it. */
export interface EphemeralContainerSpec {
  readonly name: string;
  readonly image: string;
  readonly resources: Record<string, never>;
  readonly securityContext: { readonly capabilities: { readonly add: readonly string[] } };
  readonly stdin: true;
  readonly targetContainerName?: string;
  readonly terminationMessagePolicy: 'File';
  readonly tty: true;
}

/** kubectl's `utilrand.String` alphabet (no vowels, no look-alikes). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

type Named = { name?: string };
type PodSpecLists = { containers?: Named[]; initContainers?: Named[]; ephemeralContainers?: Named[] };

/** Every container name of the pod: regular, init and ephemeral. */
export function containerNames(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as PodSpecLists;
  return [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name ?? '').filter(Boolean);
}

/** The regular containers, which a debug container can target. */
export function targetableContainers(pod: KubeObject): string[] {
  return (((pod.spec ?? {}) as PodSpecLists).containers ?? []).map((c) => c.name ?? '').filter(Boolean);
}

/** `debugger-xxxxx`, not the name of any container of the pod. */
export function debugContainerName(pod: KubeObject, random: () => number = Math.random): string {
  const taken = new Set(containerNames(pod));
  for (;;) {
    let suffix = '';
    for (let i = 0; i < 5; i++) suffix += SUFFIX_ALPHABET[Math.floor(random() * SUFFIX_ALPHABET.length) % SUFFIX_ALPHABET.length];
    const name = `debugger-${suffix}`;
    if (!taken.has(name)) return name;
  }
}

/** A problem with what the user typed as the image, in words; undefined when it reads as an image reference. */
export function imageProblem(image: string): string | undefined {
  const trimmed = image.trim();
  if (!trimmed) return 'an image is needed, for example busybox or nicolaka/netshoot';
  if (/\s/.test(trimmed)) return 'an image reference has no spaces (for example busybox:1.36)';
  if (!/^[a-z0-9]([a-z0-9._\-/:@]*[a-zA-Z0-9_])?$/.test(trimmed) && !/@sha256:[a-f0-9]{64}$/.test(trimmed)) return `"${trimmed}" is not an image reference (for example busybox:1.36 or registry.example.com/tools/debug:1)`;
  return undefined;
}

/** The ephemeral container kubectl would add, its keys in Go's order for a map (sorted). */
export function ephemeralContainerSpec(name: string, request: DebugRequest): EphemeralContainerSpec {
  return {
    image: request.image.trim(),
    name,
    resources: {},
    securityContext: { capabilities: { add: ['SYS_PTRACE'] } },
    stdin: true,
    ...(request.target ? { targetContainerName: request.target } : {}),
    terminationMessagePolicy: 'File',
    tty: true,
  } as EphemeralContainerSpec;
}

/** The body of the PATCH: kubectl's strategic merge patch, with the pod's uid as precondition. */
export function ephemeralContainersPatch(pod: KubeObject, container: EphemeralContainerSpec): Record<string, unknown> {
  const existing = ((pod.spec ?? {}) as PodSpecLists).ephemeralContainers ?? [];
  const spec = existing.length > 0 ? { '$setElementOrder/ephemeralContainers': [...existing.map((c) => ({ name: c.name })), { name: container.name }], ephemeralContainers: [container] } : { ephemeralContainers: [container] };
  return { ...(pod.metadata.uid ? { metadata: { uid: pod.metadata.uid } } : {}), spec };
}

/** The cluster has no `ephemeralcontainers` subresource (a 404 without an object's name, as kubectl tells it). */
export class EphemeralContainersUnsupported extends Error {
  /** Trying again changes nothing. */
  readonly final = true;
  constructor(serverMessage: string) {
    super(`This cluster does not support ephemeral containers: its API server has no pods/ephemeralcontainers subresource (it answered "${serverMessage}"). Kubernetes has them from 1.23 on (1.16 to 1.22 behind the EphemeralContainers feature gate). Nothing was added to the pod; Open Shell… still works where the image has a shell.`);
    this.name = 'EphemeralContainersUnsupported';
  }
}

/** The pod changed under the user: gone, or deleted and created again (another uid). Nothing was added. */
export class DebugTargetMoved extends Error {
  /** Trying again on this pod changes nothing. */
  readonly final = true;
  constructor(message: string) {
    super(message);
    this.name = 'DebugTargetMoved';
  }
}

function podPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
}

/**
 * Adds the debug container to `pod` (the pod as the user saw it: its uid is the precondition) and
 * resolves with the pod as the server answered. Rejects in words: RBAC's refusal
 * (`StreamRefused`), a cluster without the subresource, a pod gone or re-created, the server's
 * validation (an image it refuses, a name taken meanwhile).
 */
export async function addEphemeralContainer(transport: Pick<KubeTransport, 'write'>, pod: KubeObject, container: EphemeralContainerSpec, signal: AbortSignal): Promise<KubeObject> {
  const namespace = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  if (!transport.write) throw new Error('this connection cannot write');
  try {
    return await transport.write<KubeObject>(
      { method: 'PATCH', path: `${podPath(namespace, name)}/ephemeralcontainers`, body: JSON.stringify(ephemeralContainersPatch(pod, container)), contentType: 'application/strategic-merge-patch+json' },
      signal,
    );
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 403) throw new StreamRefused(err.message, namespace);
    if (err.code === 404 && !err.status.details?.name) throw new EphemeralContainersUnsupported(err.message);
    if (err.code === 404) throw new DebugTargetMoved(`Pod ${namespace}/${name} no longer exists: nothing was added.`);
    if (err.code === 422 && err.status.details?.causes?.some((c) => c.field === 'metadata.uid')) {
      throw new DebugTargetMoved(`Pod ${namespace}/${name} is not the pod you chose: it was deleted and created again under the same name (another uid) since it was shown. Nothing was added; choose Debug Pod… on its row again to debug the new pod.`);
    }
    if (err.code === 422) throw new Error(`The server refused the debug container: ${err.message}`);
    throw err;
  }
}
