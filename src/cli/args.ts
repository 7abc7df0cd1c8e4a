import { parseArgs } from 'node:util';
import { STREAMING_LIST_MODES, type StreamingListMode } from '../informer/streaming-list-memory';

/** The command line is wrong. Invariant: `message` is one line, meant for `kube-watch: <message>`. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface WatchArgs {
  command: 'watch';
  /**
   * One or more types, as kubectl spells them (`pods`, `deployments.apps`,
   * `widgets.v1.example.com`, a CRD's plural or kind), in the order given; never empty.
   */
  resources: string[];
  /** Set by --namespace / -n. */
  namespace?: string;
  /** Set by --all-namespaces / -A. Never set together with `namespace`. */
  allNamespaces: boolean;
  labelSelector?: string;
  fieldSelector?: string;
  kubeconfig?: string;
  context?: string;
  /** A positive whole number of seconds. */
  timeoutSeconds?: number;
  /** --streaming-list: how the initial list is made; omitted = 'auto'. */
  streamingList?: StreamingListMode;
}

export type CliArgs = WatchArgs | { command: 'help' } | { command: 'version' };

export const USAGE = `Usage:
  kube-watch watch RESOURCE[,RESOURCE...] [options]
  kube-watch --help | --version

Watches one or more resource types, one watch each on one connection to the cluster, and
prints one JSON object per line on standard output, each naming its type:
  {"event":"add"|"update"|"delete","resource":"pods","namespace":..,"name":..,"uid":..,"resourceVersion":..}
  {"lifecycle":"<state or event>","resource":"pods","resourceVersion":..,"reason":..,"at":"<ISO-8601>",...}
and, on SIGINT or SIGTERM, one last {"resource":..,"snapshot":[...]} line per type with its
whole cache, then exits 0.

RESOURCE is spelled as for kubectl: pods, po, Pod, deployments.apps, widgets.v1.example.com,
a custom resource by its plural or kind; several are separated by commas: pods,configmaps.
"resource" in the output is the type's plural, qualified with its group (deployments.apps).

Options:
  -n, --namespace NS         watch namespace NS (default: the context's namespace, else "default")
  -A, --all-namespaces       watch every namespace
  -l, --selector LABELS      label selector, e.g. app=web,tier!=db
      --field-selector F     field selector, e.g. status.phase=Running
      --kubeconfig PATH      kubeconfig file (default: KUBECONFIG, else ~/.kube/config)
      --context NAME         kubeconfig context (default: the current-context)
      --timeout-seconds N    timeoutSeconds of every watch request (default: random in [300, 600))
      --streaming-list MODE  auto: one streaming request lists and watches where the server
                             supports it (Kubernetes 1.32+), else paginated lists (default);
                             always: streaming only; never: paginated lists only
  -h, --help                 show this help
      --version              show the version

Exit status: 0 after a signal, 2 for bad arguments, an unknown resource (any in the list) or
context, or an unusable kubeconfig.
`;

/** Parses `argv` (without the node and script paths). Throws UsageError. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        namespace: { type: 'string', short: 'n' },
        'all-namespaces': { type: 'boolean', short: 'A' },
        selector: { type: 'string', short: 'l' },
        'field-selector': { type: 'string' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        'timeout-seconds': { type: 'string' },
        'streaming-list': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError(parseFailure(err));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };

  const [command, resource, ...extra] = positionals;
  if (command === undefined) throw new UsageError('missing command: expected "watch RESOURCE" (see --help)');
  if (command !== 'watch') throw new UsageError(`unknown command "${command}": expected "watch" (see --help)`);
  if (resource === undefined || resource.trim() === '') throw new UsageError('missing RESOURCE: for example "watch pods" (see --help)');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}": several types are separated by commas, as in "pods,configmaps" (see --help)`);
  const resources = resource.split(',').map((r) => r.trim());
  if (resources.some((r) => r === '')) throw new UsageError(`an empty resource type in "${resource}": separate types with single commas, as in "pods,configmaps"`);

  const namespace = nonEmpty(values.namespace, '--namespace');
  const allNamespaces = values['all-namespaces'] === true;
  if (namespace !== undefined && allNamespaces) throw new UsageError('--namespace and --all-namespaces cannot be used together');
  return {
    command: 'watch',
    resources: [...new Set(resources)],
    namespace,
    allNamespaces,
    labelSelector: nonEmpty(values.selector, '--selector'),
    fieldSelector: nonEmpty(values['field-selector'], '--field-selector'),
    kubeconfig: nonEmpty(values.kubeconfig, '--kubeconfig'),
    context: nonEmpty(values.context, '--context'),
    timeoutSeconds: positiveInteger(values['timeout-seconds'], '--timeout-seconds'),
    streamingList: streamingListMode(values['streaming-list']),
  };
}

function streamingListMode(value: string | undefined): StreamingListMode | undefined {
  if (value === undefined) return undefined;
  const mode = STREAMING_LIST_MODES.find((m) => m === value.trim());
  if (!mode) throw new UsageError(`--streaming-list needs one of ${STREAMING_LIST_MODES.join(', ')}, not "${value}"`);
  return mode;
}

function nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') throw new UsageError(`${flag} needs a non-empty value`);
  return v;
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) < 1 || !Number.isSafeInteger(Number(v))) {
    throw new UsageError(`${flag} needs a whole number of seconds greater than 0, not "${value}"`);
  }
  return Number(v);
}

/** Node's parseArgs messages, shortened to their first sentence. */
function parseFailure(err: unknown): string {
  const code = (err as { code?: string } | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) return `unknown option ${unknown[1]} (see --help)`;
  const missing = /^Option '([^']+)' argument missing/.exec(message);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && missing) return `option ${missing[1].replace(/ <value>$/, '')} needs a value`;
  const first = message.split('\n')[0].split(/\.\s/)[0].replace(/\.$/, '');
  return `${first.charAt(0).toLowerCase()}${first.slice(1)} (see --help)`;
}
