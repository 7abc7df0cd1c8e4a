/**
 * Pod logs as the API server serves them (`GET .../pods/NAME/log`, Kubernetes API reference,
 * PodLogOptions): plain text lines; with `timestamps=true` each prefixed by an RFC3339Nano
 * timestamp and a space; `sinceTime` (RFC3339, whole seconds) keeps lines at or after it;
 * `container` picks the container (400 when the pod has several and none is named);
 * `previous` reads the last terminated run (400 when there is none); `tailLines` keeps the last
 * N lines of the backlog; `sinceSeconds` keeps the lines of the last N seconds (by `now()`, the
 * kubelet's clock); `follow` keeps the response open and writes lines as the container writes them
 * (for a container whose status says it exited, the kubelet writes its log and ends the response).
 * Bad values are refused as a 1.34 kube-apiserver refuses them (seen on a real one): a negative
 * `tailLines`, a `sinceSeconds` below 1, or both `sinceTime` and `sinceSeconds` is a 422 Invalid
 * `PodLogOptions "NAME" is invalid: …`; a value that is not a number is a 400 `strconv.ParseInt: …`.
 *
 * Invariants: every line has one timestamp, never decreasing within a container run; a
 * container restart moves the current run to `previous` and ends its follow streams (as the
 * kubelet does when the container exits). Faults: drop (end or reset) and silence (the stream
 * stays open and receives nothing) act on the follow streams open now.
 */
import type { ServerResponse } from 'node:http';
import { baseHeaders } from './responses';
import { failure, type StatusJson } from './status';

interface LogLine {
  readonly at: number;
  readonly text: string;
}

interface ContainerLog {
  current: LogLine[];
  previous: LogLine[] | undefined;
}

/** One open `follow=true` response. */
export interface LogFollowStream {
  readonly key: string;
  silent: boolean;
  write(line: LogLine): void;
  end(): void;
  reset(): void;
}

/** The pod fields that log requests validate against. */
export interface PodForLogs {
  metadata: { name: string; namespace?: string };
  spec?: { containers?: Array<{ name: string }>; initContainers?: Array<{ name: string }>; ephemeralContainers?: Array<{ name: string }> };
  status?: Partial<Record<'containerStatuses' | 'initContainerStatuses' | 'ephemeralContainerStatuses', Array<{ name?: string; state?: { terminated?: unknown } }>>>;
}

/** True when the pod's status says `container` has exited (a kubelet then ends a follow stream after the log). */
function exited(pod: PodForLogs, container: string): boolean {
  const status = pod.status ?? {};
  for (const list of [status.containerStatuses, status.initContainerStatuses, status.ephemeralContainerStatuses]) {
    const s = Array.isArray(list) ? list.find((c) => c?.name === container) : undefined;
    if (s) return s.state?.terminated !== undefined && s.state.terminated !== null;
  }
  return false;
}

/** Formats `at` as Go's RFC3339Nano does (fraction without trailing zeros). */
export function rfc3339Nano(at: number, subMillisecondNanos = 0): string {
  const iso = new Date(at).toISOString();
  const ms = iso.slice(20, 23);
  const fraction = `${ms}${String(subMillisecondNanos).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}

/** Lines kept per container run (older ones are rotated away, as the kubelet does). */
const MAX_LINES_PER_RUN = 20_000;

const badRequest = (message: string): StatusJson => failure(400, 'BadRequest', message);

/** The apiserver's 422 for PodLogOptions that fail validation (ValidatePodLogOptions), one cause. */
function invalidOptions(pod: string, field: string, reason: 'FieldValueInvalid' | 'FieldValueForbidden', detail: string): StatusJson {
  return failure(422, 'Invalid', `PodLogOptions "${pod}" is invalid: ${field}: ${detail}`, { name: pod, kind: 'PodLogOptions', causes: [{ reason, message: detail, field }] });
}

/** A query integer as the apiserver converts it (strconv.ParseInt), or the Status of its refusal. */
function parseQueryInt(value: string): number | StatusJson {
  const n = Number(value);
  return /^[+-]?\d+$/.test(value) && Number.isSafeInteger(n) ? n : badRequest(`strconv.ParseInt: parsing "${value}": invalid syntax`);
}

export class PodLogs {
  private readonly logs = new Map<string, ContainerLog>();
  private readonly streams = new Set<LogFollowStream>();
  /** The kubelet's clock, for `sinceSeconds` (tests set it beside their line times). */
  now: () => number = () => Date.now();
  /** Every log request's query, in order (what the client asked for). */
  readonly queries: Array<Record<string, string>> = [];

  /** Appends a line to the current run of `container` and writes it to its follow streams. */
  append(namespace: string, pod: string, container: string, text: string, at: number = Date.now()): void {
    const key = keyOf(namespace, pod, container);
    const log = this.logOf(key);
    const last = log.current[log.current.length - 1];
    const line = { at: last && last.at > at ? last.at : at, text };
    log.current.push(line);
    // A kubelet rotates container logs; keep the newest lines so a long-running sandbox stays small.
    if (log.current.length > MAX_LINES_PER_RUN) log.current.splice(0, log.current.length - MAX_LINES_PER_RUN);
    for (const s of this.streams) if (s.key === key && !s.silent) s.write(line);
  }

  /** The container exits and starts again: its lines become `previous`, its follow streams end. */
  restart(namespace: string, pod: string, container: string): void {
    const key = keyOf(namespace, pod, container);
    const log = this.logOf(key);
    log.previous = log.current;
    log.current = [];
    for (const s of [...this.streams]) if (s.key === key) s.end();
  }

  /** Ends every open follow stream cleanly ('end') or with an RST ('reset'); returns how many. */
  drop(how: 'end' | 'reset'): number {
    const open = [...this.streams];
    for (const s of open) (how === 'end' ? s.end() : s.reset());
    return open.length;
  }

  /** Open follow streams stop receiving lines but stay open (a silent connection); returns how many. */
  silence(): number {
    for (const s of this.streams) s.silent = true;
    return this.streams.size;
  }

  /** The containers that follow streams read now, each once. */
  followedContainers(): Array<{ namespace: string; pod: string; container: string }> {
    return [...new Set([...this.streams].map((s) => s.key))].map((key) => {
      const [namespace, pod, container] = key.split('/');
      return { namespace, pod, container };
    });
  }

  /** Follow streams open now. */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Closes every follow stream (server shutdown). */
  destroyAll(): void {
    for (const s of [...this.streams]) s.reset();
  }

  /**
   * Serves one log request for `pod` (already found). `reset` sends an RST on the request's
   * connection. Returns the Status to send instead when the request is invalid.
   */
  serve(res: ServerResponse, pod: PodForLogs, query: Record<string, string>, reset: () => void): StatusJson | undefined {
    const name = pod.metadata.name;
    this.queries.push({ ...query });
    const regular = (pod.spec?.containers ?? []).map((c) => c.name);
    const all = [...regular, ...(pod.spec?.initContainers ?? []).map((c) => c.name), ...(pod.spec?.ephemeralContainers ?? []).map((c) => c.name)];
    let container = query.container ?? '';
    if (container === '') {
      if (regular.length !== 1) return badRequest(`a container name must be specified for pod ${name}, choose one of: [${regular.join(' ')}]`);
      container = regular[0];
    }
    if (!all.includes(container)) return badRequest(`container ${container} is not valid for pod ${name}`);
    const key = keyOf(pod.metadata.namespace ?? '', name, container);
    const log = this.logOf(key);
    const previous = isTrue(query.previous);
    if (previous && log.previous === undefined) return badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
    let since = Number.NEGATIVE_INFINITY;
    if (query.sinceTime !== undefined) {
      since = Date.parse(query.sinceTime);
      if (Number.isNaN(since)) return badRequest(`parsing time "${query.sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
    }
    let tail = Number.POSITIVE_INFINITY;
    if (query.tailLines !== undefined) {
      const parsed = parseQueryInt(query.tailLines);
      if (typeof parsed !== 'number') return parsed;
      if (parsed < 0) return invalidOptions(name, 'tailLines', 'FieldValueInvalid', `Invalid value: ${parsed}: must be greater than or equal to 0`);
      tail = parsed;
    }
    if (query.sinceSeconds !== undefined) {
      const parsed = parseQueryInt(query.sinceSeconds);
      if (typeof parsed !== 'number') return parsed;
      if (query.sinceTime !== undefined) return invalidOptions(name, '[]', 'FieldValueForbidden', 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
      if (parsed < 1) return invalidOptions(name, 'sinceSeconds', 'FieldValueInvalid', `Invalid value: ${parsed}: must be greater than 0`);
      since = this.now() - parsed * 1000;
    }
    const timestamps = isTrue(query.timestamps);
    const render = (l: LogLine) => `${timestamps ? `${rfc3339Nano(l.at)} ` : ''}${l.text}\n`;

    res.writeHead(200, baseHeaders('text/plain')); // no Content-Length: chunked on HTTP/1.1, DATA frames on HTTP/2
    const lines = previous ? log.previous! : log.current;
    const recent = lines.filter((l) => l.at >= since);
    const backlog = (tail < recent.length ? recent.slice(Math.max(0, recent.length - tail)) : recent).map(render).join('');
    if (backlog) res.write(backlog);
    if (previous || !isTrue(query.follow) || exited(pod, container)) {
      res.end();
      return undefined;
    }
    const stream: LogFollowStream = {
      key,
      silent: false,
      write: (l) => void res.write(render(l)),
      end: () => {
        this.streams.delete(stream);
        res.end();
      },
      reset: () => {
        this.streams.delete(stream);
        reset();
      },
    };
    this.streams.add(stream);
    res.on('close', () => this.streams.delete(stream));
    return undefined;
  }

  private logOf(key: string): ContainerLog {
    let log = this.logs.get(key);
    if (!log) {
      log = { current: [], previous: undefined };
      this.logs.set(key, log);
    }
    return log;
  }
}

function keyOf(namespace: string, pod: string, container: string): string {
  return `${namespace}/${pod}/${container}`;
}

function isTrue(v: string | undefined): boolean {
  return v !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);
}
