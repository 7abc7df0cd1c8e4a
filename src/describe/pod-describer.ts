import type { KubeObject } from '../informer';
import { DescribeWriter } from './describe-writer';
import { arr, describeTime, num, rec, str, writeAnnotations, writeControlledBy, writeMap, type Json } from './describe-format';

/** kubectl describe pod: identity, placement, status, containers, conditions, volumes, QoS, scheduling. */
export function describePod(pod: KubeObject): DescribeWriter {
  const w = new DescribeWriter();
  const spec = rec((pod as Json).spec);
  const status = rec((pod as Json).status);
  w.line(0, 'Name:', pod.metadata.name ?? '');
  w.line(0, 'Namespace:', pod.metadata.namespace ?? '');
  if (num(spec.priority) !== undefined) w.line(0, 'Priority:', String(spec.priority));
  if (str(spec.priorityClassName)) w.line(0, 'Priority Class Name:', str(spec.priorityClassName));
  if (str(spec.runtimeClassName)) w.line(0, 'Runtime Class Name:', str(spec.runtimeClassName));
  w.line(0, 'Service Account:', str(spec.serviceAccountName) || str(spec.serviceAccount) || 'default');
  const node = str(spec.nodeName);
  if (!node) w.line(0, 'Node:', '<none>');
  else w.line(0, 'Node:', `${node}/${str(status.hostIP)}`).link(node, { apiVersion: 'v1', kind: 'Node', namespace: '', name: node });
  if (status.startTime) w.line(0, 'Start Time:', describeTime(status.startTime));
  writeMap(w, 0, 'Labels', pod.metadata.labels);
  writeAnnotations(w, pod);
  const deletion = pod.metadata.deletionTimestamp;
  if (deletion) {
    w.line(0, 'Status:', `Terminating (lasts since ${describeTime(deletion)})`);
    if (num(pod.metadata.deletionGracePeriodSeconds) !== undefined) w.line(0, 'Termination Grace Period:', `${pod.metadata.deletionGracePeriodSeconds}s`);
  } else {
    w.line(0, 'Status:', str(status.phase));
  }
  if (str(status.reason)) w.line(0, 'Reason:', str(status.reason));
  if (str(status.message)) w.line(0, 'Message:', str(status.message));
  w.line(0, 'IP:', str(status.podIP));
  const ips = arr(status.podIPs);
  if (ips.length === 0) w.line(0, 'IPs:', '<none>');
  else {
    w.line(0, 'IPs:');
    for (const ip of ips) w.line(1, 'IP:', str(ip.ip));
  }
  writeControlledBy(w, pod);
  if (str(status.nominatedNodeName)) w.line(0, 'NominatedNodeName:', str(status.nominatedNodeName));

  const initContainers = arr(spec.initContainers);
  if (initContainers.length > 0) {
    w.line(0, 'Init Containers:');
    writeContainers(w, initContainers, arr(status.initContainerStatuses));
  }
  w.line(0, 'Containers:');
  writeContainers(w, arr(spec.containers), arr(status.containerStatuses));
  // As kubectl describe: ephemeral (debug) containers after the regular ones, with their state.
  const ephemeralContainers = arr(spec.ephemeralContainers);
  if (ephemeralContainers.length > 0) {
    w.line(0, 'Ephemeral Containers:');
    writeContainers(w, ephemeralContainers, arr(status.ephemeralContainerStatuses));
  }

  const conditions = arr(status.conditions);
  if (conditions.length > 0) {
    w.line(0, 'Conditions:');
    w.line(1, 'Type', 'Status');
    for (const c of conditions) w.line(1, `${str(c.type)} `, `${str(c.status)} `);
  }
  writeVolumes(w, arr(spec.volumes), pod.metadata.namespace ?? '');
  w.line(0, 'QoS Class:', str(status.qosClass) || qosClass(spec));
  writeMap(w, 0, 'Node-Selectors', spec.nodeSelector);
  const tolerations = arr(spec.tolerations);
  if (tolerations.length === 0) w.line(0, 'Tolerations:', '<none>');
  tolerations.forEach((t, i) => w.line(0, i === 0 ? 'Tolerations:' : '', tolerationText(t)));
  return w;
}

/** The containers of a Pod (with their statuses), or of a pod template (`template`: no status lines, names one space further, as kubectl). */
export function writeContainers(w: DescribeWriter, containers: Json[], statuses: Json[], template = false): void {
  for (const c of containers) {
    const name = str(c.name);
    const st = statuses.find((s) => str(s.name) === name);
    w.line(1, `${template ? ' ' : ''}${name}:`);
    if (st) w.line(2, 'Container ID:', str(st.containerID));
    w.line(2, 'Image:', str(c.image));
    if (st) w.line(2, 'Image ID:', str(st.imageID));
    const ports = arr(c.ports);
    const portText = (p: Json, key: string) => `${num(p[key]) ?? 0}/${str(p.protocol) || 'TCP'}`;
    if (ports.length === 0) {
      w.line(2, 'Port:', '<none>');
      w.line(2, 'Host Port:', '<none>');
    } else {
      w.line(2, ports.length > 1 ? 'Ports:' : 'Port:', ports.map((p) => portText(p, 'containerPort')).join(', '));
      w.line(2, ports.length > 1 ? 'Host Ports:' : 'Host Port:', ports.map((p) => portText(p, 'hostPort')).join(', '));
    }
    writeList(w, 'Command:', c.command);
    writeList(w, 'Args:', c.args);
    if (st) {
      writeState(w, 'State:', rec(st.state));
      if (Object.keys(rec(st.lastState)).length > 0) writeState(w, 'Last State:', rec(st.lastState));
      w.line(2, 'Ready:', st.ready === true ? 'True' : 'False');
      w.line(2, 'Restart Count:', String(num(st.restartCount) ?? 0));
    } else if (!template) {
      w.line(2, 'State:', 'Waiting');
      w.line(2, 'Ready:', 'False');
      w.line(2, 'Restart Count:', '0');
    }
    const resources = rec(c.resources);
    for (const [title, key] of [
      ['Limits:', 'limits'],
      ['Requests:', 'requests'],
    ] as const) {
      const values = Object.entries(rec(resources[key])).sort(([a], [b]) => (a < b ? -1 : 1));
      if (values.length === 0) continue;
      w.line(2, title);
      for (const [k, v] of values) w.line(3, `${k}:`, str(v));
    }
    for (const [title, key] of [
      ['Liveness:', 'livenessProbe'],
      ['Readiness:', 'readinessProbe'],
      ['Startup:', 'startupProbe'],
    ] as const) {
      const probe = rec(c[key]);
      if (Object.keys(probe).length > 0) w.line(2, title, probeText(probe));
    }
    const envFrom = arr(c.envFrom);
    if (envFrom.length > 0) {
      w.line(2, 'Environment Variables from:');
      for (const e of envFrom) {
        const cm = rec(e.configMapRef);
        const secret = rec(e.secretRef);
        if (str(cm.name)) w.line(3, str(cm.name), `ConfigMap  Optional: ${cm.optional === true}`);
        if (str(secret.name)) w.line(3, str(secret.name), `Secret  Optional: ${secret.optional === true}`);
      }
    }
    const env = arr(c.env);
    if (env.length === 0) w.line(2, 'Environment:', '<none>');
    else {
      w.line(2, 'Environment:');
      for (const e of env) w.line(3, `${str(e.name)}:`, envValue(e));
    }
    const mounts = arr(c.volumeMounts);
    if (mounts.length === 0) w.line(2, 'Mounts:', '<none>');
    else {
      w.line(2, 'Mounts:');
      for (const m of mounts) {
        const flags = [m.readOnly === true ? 'ro' : 'rw', ...(str(m.subPath) ? [`path="${str(m.subPath)}"`] : [])];
        w.line(3, `${str(m.mountPath)} from ${str(m.name)} (${flags.join(',')})`);
      }
    }
  }
}

function writeList(w: DescribeWriter, title: string, value: unknown): void {
  if (!Array.isArray(value) || value.length === 0) return;
  w.line(2, title);
  for (const v of value) w.line(3, str(v));
}

/** `State: Running / Started: …`, `Waiting / Reason: …`, `Terminated / Reason, Exit Code, Started, Finished`. */
function writeState(w: DescribeWriter, title: string, state: Json): void {
  const running = state.running !== undefined ? rec(state.running) : undefined;
  const waiting = state.waiting !== undefined ? rec(state.waiting) : undefined;
  const terminated = state.terminated !== undefined ? rec(state.terminated) : undefined;
  if (running) {
    w.line(2, title, 'Running');
    w.line(3, 'Started:', describeTime(running.startedAt));
  } else if (waiting) {
    w.line(2, title, 'Waiting');
    if (str(waiting.reason)) w.line(3, 'Reason:', str(waiting.reason));
    if (str(waiting.message)) w.line(3, 'Message:', str(waiting.message));
  } else if (terminated) {
    w.line(2, title, 'Terminated');
    if (str(terminated.reason)) w.line(3, 'Reason:', str(terminated.reason));
    if (str(terminated.message)) w.line(3, 'Message:', str(terminated.message));
    w.line(3, 'Exit Code:', String(num(terminated.exitCode) ?? 0));
    if (num(terminated.signal)) w.line(3, 'Signal:', String(terminated.signal));
    w.line(3, 'Started:', describeTime(terminated.startedAt));
    w.line(3, 'Finished:', describeTime(terminated.finishedAt));
  } else {
    w.line(2, title, 'Waiting');
  }
}

/** An environment variable's value or its source; Secret values are never read here, only named. */
function envValue(e: Json): string {
  if (e.value !== undefined) return str(e.value);
  const from = rec(e.valueFrom);
  const field = rec(from.fieldRef);
  if (str(field.fieldPath)) return ` (${str(field.apiVersion) || 'v1'}:${str(field.fieldPath)})`;
  const resource = rec(from.resourceFieldRef);
  if (str(resource.resource)) return `${str(resource.resource)}`;
  const secret = rec(from.secretKeyRef);
  if (str(secret.name)) return `<set to the key '${str(secret.key)}' in secret '${str(secret.name)}'>  Optional: ${secret.optional === true}`;
  const cm = rec(from.configMapKeyRef);
  if (str(cm.name)) return `<set to the key '${str(cm.key)}' of config map '${str(cm.name)}'>  Optional: ${cm.optional === true}`;
  return '';
}

/** `http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3`, as kubectl's DescribeProbe. */
function probeText(p: Json): string {
  const attrs = `delay=${num(p.initialDelaySeconds) ?? 0}s timeout=${num(p.timeoutSeconds) ?? 1}s period=${num(p.periodSeconds) ?? 10}s #success=${num(p.successThreshold) ?? 1} #failure=${num(p.failureThreshold) ?? 3}`;
  const exec = rec(p.exec);
  if (Array.isArray(exec.command)) return `exec [${(exec.command as unknown[]).map(str).join(' ')}] ${attrs}`;
  const http = rec(p.httpGet);
  if (Object.keys(http).length > 0) {
    const scheme = (str(http.scheme) || 'HTTP').toLowerCase();
    return `http-get ${scheme}://${str(http.host)}:${str(http.port)}${str(http.path)} ${attrs}`;
  }
  const tcp = rec(p.tcpSocket);
  if (Object.keys(tcp).length > 0) return `tcp-socket ${str(tcp.host)}:${str(tcp.port)} ${attrs}`;
  const grpc = rec(p.grpc);
  if (Object.keys(grpc).length > 0) return `grpc <pod>:${str(grpc.port)} ${str(grpc.service)} ${attrs}`;
  return `unknown ${attrs}`;
}

function tolerationText(t: Json): string {
  let text = str(t.key);
  if (str(t.value)) text += `=${str(t.value)}`;
  if (str(t.effect)) text += `:${str(t.effect)}`;
  if (str(t.operator) === 'Exists' && !str(t.value)) text += str(t.key) ? ' op=Exists' : 'op=Exists';
  if (num(t.tolerationSeconds) !== undefined) text += ` for ${t.tolerationSeconds}s`;
  return text;
}

/** The Volumes section (at `base` 0 for a Pod, 1 in a pod template), with the type line kubectl prints for the common sources. */
export function writeVolumes(w: DescribeWriter, volumes: Json[], namespace: string, base = 0): void {
  if (volumes.length === 0) {
    w.line(base, 'Volumes:', '<none>');
    return;
  }
  w.line(base, 'Volumes:');
  for (const v of volumes) {
    w.line(base + 1, `${str(v.name)}:`);
    if (v.emptyDir !== undefined) {
      const e = rec(v.emptyDir);
      w.line(base + 2, 'Type:', "EmptyDir (a temporary directory that shares a pod's lifetime)");
      w.line(base + 2, 'Medium:', str(e.medium));
      w.line(base + 2, 'SizeLimit:', str(e.sizeLimit) || '<unset>');
    } else if (v.configMap !== undefined) {
      const c = rec(v.configMap);
      w.line(base + 2, 'Type:', 'ConfigMap (a volume populated by a ConfigMap)');
      w.line(base + 2, 'Name:', str(c.name)).link(str(c.name), { apiVersion: 'v1', kind: 'ConfigMap', namespace, name: str(c.name) });
      w.line(base + 2, 'Optional:', String(c.optional === true));
    } else if (v.secret !== undefined) {
      const s = rec(v.secret);
      w.line(base + 2, 'Type:', 'Secret (a volume populated by a Secret)');
      w.line(base + 2, 'SecretName:', str(s.secretName));
      w.line(base + 2, 'Optional:', String(s.optional === true));
    } else if (v.persistentVolumeClaim !== undefined) {
      const c = rec(v.persistentVolumeClaim);
      w.line(base + 2, 'Type:', 'PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)');
      w.line(base + 2, 'ClaimName:', str(c.claimName)).link(str(c.claimName), { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace, name: str(c.claimName) });
      w.line(base + 2, 'ReadOnly:', String(c.readOnly === true));
    } else if (v.hostPath !== undefined) {
      const h = rec(v.hostPath);
      w.line(base + 2, 'Type:', 'HostPath (bare host directory volume)');
      w.line(base + 2, 'Path:', str(h.path));
      w.line(base + 2, 'HostPathType:', str(h.type));
    } else if (v.projected !== undefined) {
      const p = rec(v.projected);
      w.line(base + 2, 'Type:', 'Projected (a volume that contains injected data from multiple sources)');
      for (const source of arr(p.sources)) {
        const token = rec(source.serviceAccountToken);
        if (Object.keys(token).length > 0) w.line(base + 2, 'TokenExpirationSeconds:', String(num(token.expirationSeconds) ?? 3600));
        const cm = rec(source.configMap);
        if (str(cm.name)) {
          w.line(base + 2, 'ConfigMapName:', str(cm.name));
          w.line(base + 2, 'Optional:', String(cm.optional === true));
        }
        if (source.downwardAPI !== undefined) w.line(base + 2, 'DownwardAPI:', 'true');
      }
    } else {
      const kind = Object.keys(v).find((k) => k !== 'name') ?? 'unknown';
      w.line(base + 2, 'Type:', kind);
    }
  }
}

/** The QoS class when the status does not carry it: Guaranteed, Burstable or BestEffort. */
export function qosClass(spec: Json): string {
  const containers = [...arr(spec.containers), ...arr(spec.initContainers)];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const r = rec(c.resources);
    const limits = rec(r.limits);
    const requests = { ...limits, ...rec(r.requests) };
    if (Object.keys(limits).length + Object.keys(requests).length > 0) any = true;
    for (const res of ['cpu', 'memory']) if (limits[res] === undefined || str(requests[res]) !== str(limits[res])) guaranteed = false;
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
