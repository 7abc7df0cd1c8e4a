/**
 * The simulated cluster's controllers for what Kube Watch's actions change, in the small: the
 * deployment controller (a changed pod template gets a new ReplicaSet with the next revision and
 * the old one is scaled down as the new Pods get ready; replicas follow `spec.replicas`), the
 * ReplicaSet controller (Pods created or deleted to match its replicas, a deleted or evicted Pod
 * replaced), the Job controller (a Job's Pod runs and completes), a scheduler (a new Pod goes to
 * the first node that is not cordoned, or stays Pending) and a kubelet (a scheduled Pod runs and
 * gets ready a moment later).
 *
 * It acts only on what changed after `start()` (a new Deployment, one whose replicas or template changed,
 * a ReplicaSet scaled or missing a Pod, a new Job), so the seeded cluster and its churn look as
 * they always did until someone acts. Writes are deferred (the server calls back inside a change)
 * and coalesced into one pass; a pass also runs every second while something is in progress.
 * After `stop()` no timer or subscription is left.
 */
import type { FakeApiServer, KubeObjectJson, ObjectChange } from '../../test/support/apiserver';

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

const DEPLOYMENTS = 'deployments.apps';
const REPLICA_SETS = 'replicasets.apps';
const JOBS = 'jobs.batch';
const REVISION = 'deployment.kubernetes.io/revision';
const HASH = 'pod-template-hash';
/** How long a scheduled Pod takes to run and get ready, and a Job's Pod to complete. */
const START_MS = 1500;
const JOB_RUN_MS = 4000;

export class WorkloadController {
  private unsubscribe: (() => void) | undefined;
  private pending: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;
  /** uids of what changed since start: only these are reconciled. */
  private readonly touched = new Set<string>();
  /** When each Pod this controller created was created (the kubelet starts it after START_MS). */
  private readonly born = new Map<string, number>();
  private serial = 0;

  constructor(private readonly server: FakeApiServer) {}

  start(): void {
    this.stop();
    this.adoptSeeded();
    this.unsubscribe = this.server.onChange((c) => this.changed(c));
    this.ticker = setInterval(() => this.pass(), 1000);
    this.ticker.unref();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.pending) clearTimeout(this.pending);
    if (this.ticker) clearInterval(this.ticker);
    this.pending = undefined;
    this.ticker = undefined;
  }

  /**
   * The seeded ReplicaSets carry only their labels as pod template: each gets its Deployment's
   * template (with its pod-template-hash) and revision 1, as the deployment controller would have
   * written them, so that a scale is a scale and not a rollout.
   */
  private adoptSeeded(): void {
    for (const d of this.server.list(DEPLOYMENTS)) {
      const owned = this.server.list(REPLICA_SETS, d.metadata.namespace).filter((rs) => controllerOf(rs)?.uid === d.metadata.uid);
      if (owned.length !== 1 || owned[0].metadata.annotations?.[REVISION]) continue;
      const rs = owned[0];
      const template = rec(rec(d.spec).template);
      const hash = rs.metadata.labels?.[HASH];
      const labels = { ...(rec(template.metadata).labels as Record<string, string> | undefined), ...(hash ? { [HASH]: hash } : {}) };
      this.server.update(REPLICA_SETS, { ...rs, metadata: { ...rs.metadata, annotations: { ...(rs.metadata.annotations ?? {}), [REVISION]: '1' } }, spec: { ...rec(rs.spec), template: { ...template, metadata: { ...rec(template.metadata), labels } } } });
      this.server.update(DEPLOYMENTS, { ...d, metadata: { ...d.metadata, annotations: { ...(d.metadata.annotations ?? {}), [REVISION]: '1' } } });
    }
  }

  private changed(c: ObjectChange): void {
    const uid = c.object.metadata.uid;
    if (!uid) return;
    if (c.resource === DEPLOYMENTS && c.type === 'MODIFIED' && c.prev) {
      const spec = rec(c.object.spec);
      const prev = rec(c.prev.spec);
      if (spec.replicas !== prev.replicas || JSON.stringify(spec.template) !== JSON.stringify(prev.template)) this.touch(uid);
    } else if (c.resource === REPLICA_SETS && c.type === 'MODIFIED' && c.prev && rec(c.object.spec).replicas !== rec(c.prev.spec).replicas) {
      this.touch(uid);
    } else if (c.resource === 'pods' && (c.type === 'DELETED' || (c.type === 'MODIFIED' && c.object.metadata.deletionTimestamp && !c.prev?.metadata.deletionTimestamp))) {
      // A Pod going (deleted, or terminating: it no longer counts) is replaced by its ReplicaSet.
      const owner = controllerOf(c.object);
      if (owner?.kind === 'ReplicaSet' && owner.uid) this.touch(owner.uid);
    } else if ((c.resource === JOBS || c.resource === DEPLOYMENTS) && c.type === 'ADDED') {
      // A new Job runs; a new Deployment (`kubectl create deployment`, an apply) gets its ReplicaSet and Pods.
      this.touch(uid);
    }
  }

  private touch(uid: string): void {
    this.touched.add(uid);
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.pass();
    }, 100);
    this.pending.unref();
  }

  /** One pass over what was touched: Deployments, then ReplicaSets, Jobs, and the kubelet. */
  pass(): void {
    try {
      for (const d of this.server.list(DEPLOYMENTS)) if (this.touched.has(d.metadata.uid ?? '')) this.reconcileDeployment(d);
      for (const rs of this.server.list(REPLICA_SETS)) if (this.touched.has(rs.metadata.uid ?? '')) this.reconcileReplicaSet(rs);
      for (const job of this.server.list(JOBS)) if (this.touched.has(job.metadata.uid ?? '')) this.reconcileJob(job);
      this.kubelet();
      for (const d of this.server.list(DEPLOYMENTS)) if (this.touched.has(d.metadata.uid ?? '')) this.writeDeploymentStatus(d);
    } catch {
      // a simulated controller: the next pass tries again
    }
  }

  private reconcileDeployment(d: KubeObjectJson): void {
    const ns = d.metadata.namespace!;
    const spec = rec(d.spec);
    const template = rec(spec.template);
    const owned = this.server.list(REPLICA_SETS, ns).filter((rs) => controllerOf(rs)?.uid === d.metadata.uid);
    let current = owned.find((rs) => sameTemplate(rec(rec(rs.spec).template), template));
    if (!current) {
      const revision = Math.max(0, ...owned.map((rs) => Number(rs.metadata.annotations?.[REVISION] ?? 0))) + 1;
      const hash = templateHash(template);
      const labels = { ...(rec(rec(template).metadata).labels as Record<string, string> | undefined), [HASH]: hash };
      current = this.server.create(REPLICA_SETS, {
        metadata: { namespace: ns, name: `${d.metadata.name}-${hash}`, labels, annotations: { [REVISION]: String(revision) }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name, uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }] },
        spec: { replicas: 0, selector: { matchLabels: labels }, template: { ...template, metadata: { ...rec(template.metadata), labels } } },
        status: { replicas: 0 },
      });
      this.touch(current.metadata.uid!);
      this.server.update(DEPLOYMENTS, { ...d, metadata: { ...d.metadata, annotations: { ...(d.metadata.annotations ?? {}), [REVISION]: String(revision) } } });
    }
    this.touch(current.metadata.uid!);
    const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
    const ready = this.podsOf(current).filter(isReady).length;
    this.setReplicas(current, replicas);
    for (const old of owned) {
      if (old.metadata.uid === current.metadata.uid) continue;
      this.touch(old.metadata.uid!);
      // Rolling: the old ReplicaSet gives up a Pod for each ready new one.
      this.setReplicas(old, Math.min(Number(rec(old.spec).replicas ?? 0), Math.max(0, replicas - ready)));
    }
  }

  private setReplicas(rs: KubeObjectJson, replicas: number): void {
    if (rec(rs.spec).replicas === replicas) return;
    const now = this.server.get(REPLICA_SETS, rs.metadata.namespace, rs.metadata.name);
    if (now) this.server.update(REPLICA_SETS, { ...now, spec: { ...rec(now.spec), replicas } });
  }

  private reconcileReplicaSet(rs: KubeObjectJson): void {
    const replicas = Number(rec(rs.spec).replicas ?? 0);
    const pods = this.podsOf(rs);
    for (let i = pods.length; i < replicas; i++) this.createPod(rs, { kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid! }, labelsOf(rs));
    // The not-ready and the newest go first, as the ReplicaSet controller prefers.
    const surplus = [...pods].sort((a, b) => Number(isReady(a)) - Number(isReady(b)) || Number(b.metadata.resourceVersion) - Number(a.metadata.resourceVersion)).slice(0, Math.max(0, pods.length - replicas));
    for (const pod of surplus) this.server.delete('pods', pod.metadata.namespace, pod.metadata.name);
    const ready = this.podsOf(rs).filter(isReady).length;
    const status = rec(rs.status);
    const count = this.podsOf(rs).length;
    if (status.replicas !== count || status.readyReplicas !== ready) {
      const now = this.server.get(REPLICA_SETS, rs.metadata.namespace, rs.metadata.name);
      if (now) this.server.update(REPLICA_SETS, { ...now, status: { ...rec(now.status), replicas: count, fullyLabeledReplicas: count, readyReplicas: ready, availableReplicas: ready, observedGeneration: now.metadata.generation ?? 1 } });
    }
  }

  private reconcileJob(job: KubeObjectJson): void {
    const status = rec(job.status);
    const pods = this.podsOf(job);
    if (pods.length === 0 && !status.completionTime && !status.startTime) {
      const labels = { 'job-name': job.metadata.name, 'batch.kubernetes.io/job-name': job.metadata.name, 'controller-uid': job.metadata.uid! };
      this.createPod(job, { kind: 'Job', name: job.metadata.name, uid: job.metadata.uid!, apiVersion: 'batch/v1' }, labels, 'Never');
      this.server.update(JOBS, { ...job, status: { ...status, active: 1, startTime: stamp(Date.now()) } });
      return;
    }
    const done = pods.find((p) => rec(p.status).phase === 'Succeeded');
    if (done && !status.completionTime) {
      this.server.update(JOBS, { ...job, status: { startTime: status.startTime, completionTime: stamp(Date.now()), succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } });
      this.touched.delete(job.metadata.uid!);
    }
  }

  /** The scheduler and the kubelet: Pending Pods of ours go to a node that is not cordoned, run, get ready; a Job's completes. */
  private kubelet(): void {
    const node = this.server
      .list('nodes')
      .filter((n) => rec(n.spec).unschedulable !== true)
      .map((n) => n.metadata.name)
      .sort()[0];
    const now = Date.now();
    for (const [key, at] of [...this.born]) {
      const [ns, name] = key.split('/');
      const pod = this.server.get('pods', ns, name);
      if (!pod) {
        this.born.delete(key);
        continue;
      }
      const phase = rec(pod.status).phase;
      const spec = rec(pod.spec);
      if (phase === 'Pending' && !spec.nodeName && node) this.server.update('pods', { ...pod, spec: { ...spec, nodeName: node } });
      else if (phase === 'Pending' && spec.nodeName && now - at >= START_MS) this.server.update('pods', { ...pod, status: runningStatus(pod) });
      else if (phase === 'Running' && spec.restartPolicy === 'Never' && now - at >= START_MS + JOB_RUN_MS) {
        this.server.update('pods', { ...pod, status: { ...rec(pod.status), phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: ((spec.containers as Json[] | undefined) ?? []).map((c) => ({ name: c.name, ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } })) } });
        this.born.delete(key);
        const owner = controllerOf(pod);
        if (owner?.uid) this.touch(owner.uid);
      } else if (phase === 'Running' && spec.restartPolicy !== 'Never') {
        this.born.delete(key);
        const owner = controllerOf(pod);
        if (owner?.uid) this.touch(owner.uid);
      }
    }
  }

  private writeDeploymentStatus(d: KubeObjectJson): void {
    const owned = this.server.list(REPLICA_SETS, d.metadata.namespace).filter((rs) => controllerOf(rs)?.uid === d.metadata.uid);
    const current = owned.find((rs) => sameTemplate(rec(rec(rs.spec).template), rec(rec(d.spec).template)));
    const pods = owned.flatMap((rs) => this.podsOf(rs));
    const replicas = Number(rec(d.spec).replicas ?? 1);
    const ready = pods.filter(isReady).length;
    const updated = current ? this.podsOf(current).length : 0;
    const status = rec(d.status);
    const next = { ...status, observedGeneration: d.metadata.generation ?? 1, replicas: pods.length, updatedReplicas: updated, readyReplicas: ready, availableReplicas: ready, unavailableReplicas: Math.max(0, replicas - ready) };
    const progressing = ready < replicas || updated < pods.length;
    const conditions = (status.conditions as Json[] | undefined ?? []).filter((c) => c.type !== 'Progressing' && c.type !== 'Available');
    const at = stamp(Date.now());
    conditions.push({ type: 'Available', status: ready >= replicas ? 'True' : 'False', reason: ready >= replicas ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable', lastUpdateTime: at, lastTransitionTime: at });
    conditions.push({ type: 'Progressing', status: 'True', reason: progressing ? 'ReplicaSetUpdated' : 'NewReplicaSetAvailable', message: `ReplicaSet "${current?.metadata.name ?? ''}" ${progressing ? 'is progressing' : 'has successfully progressed'}.`, lastUpdateTime: at, lastTransitionTime: at });
    const counts = (s: Json) => JSON.stringify([s.replicas, s.updatedReplicas, s.readyReplicas, s.observedGeneration, (s.conditions as Json[] | undefined)?.map((c) => c.reason)]);
    const withConditions = { ...next, conditions };
    if (counts(status) === counts(withConditions)) return;
    const now = this.server.get(DEPLOYMENTS, d.metadata.namespace, d.metadata.name);
    if (now) this.server.update(DEPLOYMENTS, { ...now, status: withConditions });
    if (!progressing) this.touched.delete(d.metadata.uid!);
  }

  private podsOf(owner: KubeObjectJson): KubeObjectJson[] {
    return this.server.list('pods', owner.metadata.namespace).filter((p) => controllerOf(p)?.uid === owner.metadata.uid && !p.metadata.deletionTimestamp);
  }

  /** A Pod from the owner's pod template, as the ReplicaSet and Job controllers make one: the whole spec (ports included) and the template's annotations. */
  private createPod(owner: KubeObjectJson, ref: { kind: string; name: string; uid: string; apiVersion?: string }, labels: Record<string, string>, restartPolicy = 'Always'): void {
    const template = rec(rec(owner.spec).template);
    const podSpec = structuredClone(rec(template.spec));
    const containers = (podSpec.containers as Json[] | undefined) ?? [{ name: 'main', image: 'registry.example.com/app:1.0' }];
    const annotations = rec(template.metadata).annotations as Record<string, string> | undefined;
    const name = `${owner.metadata.name}-${suffix(++this.serial + Date.now())}`;
    this.server.create('pods', {
      metadata: { namespace: owner.metadata.namespace, name, labels, ...(annotations ? { annotations: { ...annotations } } : {}), ownerReferences: [{ apiVersion: ref.apiVersion ?? 'apps/v1', kind: ref.kind, name: ref.name, uid: ref.uid, controller: true, blockOwnerDeletion: true }] },
      spec: { ...podSpec, restartPolicy: podSpec.restartPolicy ?? restartPolicy, terminationGracePeriodSeconds: podSpec.terminationGracePeriodSeconds ?? 30, containers },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: containers.map((c) => ({ name: String(c.name ?? 'main'), ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } })),
      },
    });
    this.born.set(`${owner.metadata.namespace}/${name}`, Date.now());
  }
}

function controllerOf(obj: KubeObjectJson): { kind?: string; name?: string; uid?: string } | undefined {
  return ((obj.metadata.ownerReferences as { kind?: string; name?: string; uid?: string; controller?: boolean }[] | undefined) ?? []).find((r) => r.controller);
}

function isReady(pod: KubeObjectJson): boolean {
  const status = rec(pod.status);
  return status.phase === 'Running' && ((status.conditions as Json[] | undefined) ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function runningStatus(pod: KubeObjectJson): Json {
  const started = stamp(Date.now());
  const containers = ((rec(pod.spec).containers as Json[] | undefined) ?? []).map((c) => ({ name: c.name, ready: true, restartCount: 0, state: { running: { startedAt: started } } }));
  return { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: containers, startTime: started };
}

function labelsOf(rs: KubeObjectJson): Record<string, string> {
  return (rec(rec(rec(rs.spec).template).metadata).labels as Record<string, string> | undefined) ?? rs.metadata.labels ?? {};
}

/** Two pod templates alike but for the pod-template-hash label. */
function sameTemplate(a: Json, b: Json): boolean {
  return JSON.stringify(normalized(a)) === JSON.stringify(normalized(b));
}

function normalized(t: Json): unknown {
  const meta = rec(t.metadata);
  const labels = { ...(meta.labels as Record<string, string> | undefined) };
  delete labels[HASH];
  return sortKeys({ ...t, metadata: { ...meta, labels } });
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.keys(v).sort().filter((k) => (v as Json)[k] !== undefined).map((k) => [k, sortKeys((v as Json)[k])]));
}

/** A pod-template-hash-like name for a template: stable, 9 characters. */
function templateHash(template: Json): string {
  let h = 2166136261;
  for (const c of JSON.stringify(normalized(template))) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return suffix(h).concat(suffix(h >>> 7)).slice(0, 9);
}

function suffix(seed: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let x = (seed * 2654435761) >>> 0;
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += alphabet[x % alphabet.length];
    x = Math.floor(x / alphabet.length) + (i + 1) * 7919;
  }
  return out;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
