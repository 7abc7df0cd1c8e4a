/**
 * `npm run compare`: runs every fault scenario (docs/fault-matrix.md) against our informer and against
 * @kubernetes/client-node's own informer, on the same fake API server, and prints which of
 * them each one survives. The reference may fail freely; the exit code is 1 when Kube Watch
 * fails a row (or the harness itself breaks), 0 otherwise.
 *
 * Options: `--only F09,F10` (rows to run), `--bound <ms>` (per-scenario bound, default 20000),
 * `--no-error-restart` (run the reference without the example's restart-on-error handler),
 * `--real-time-reference` (run the reference's own delays in real time, as makeInformer does,
 * while the server runs SCALE times faster; by default the reference's ListWatch gets its delays
 * scaled like everything else — see ReferenceOptions.scaledTime — so that time-scale artefacts
 * are not counted as failures, or as survivals).
 */
import { AssertionError } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeApiServer, RequestRecord } from '../support/apiserver';
import { allScenarios } from '../faults/scenarios';
import { Rig, SCALE, until } from '../faults/rig';
import { SERVER_BEHAVIOURS, scenarioId, type FaultContext, type Scenario } from '../faults/scenario';
import { describeError, README_ERROR_RESTART_MS, ReferenceContext, type ReferenceOptions } from './reference-context';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Real-time bound for one scenario on one side (the scenarios' own waits are bounded at 15 s). */
const DEFAULT_BOUND_MS = 20_000;
/** Real-time bound for stopping and closing after a scenario. */
const CLEANUP_BOUND_MS = 10_000;
/**
 * How long after stop() every client socket must be gone. undici (under both clients) closes an
 * idle keep-alive socket after 4 s by default; a watch left open after stop() lives until the
 * server's own timeout (7 s or more at this scale), so it shows.
 */
const AFTER_STOP_MS = 6_000;

interface Outcome {
  pass: boolean;
  /** First line of the failure, with the values when node:assert generated the message. */
  reason?: string;
  /** The failure's full message (trimmed). */
  detail?: string;
  ms: number;
  /** Requests the server saw, by verb. */
  requests?: Record<string, number>;
  /** Reference only: its 'error' events, counted by message. */
  errors?: string[];
  /** Problems while stopping or closing, or rejections nobody handled while it ran. */
  harness?: string[];
  /** On failure: the server's requests and the reference's errors in time order (real ms from the start). */
  trace?: string[];
  /** The scenario itself passed (whatever the check after stop() found). */
  scenarioPassed: boolean;
  /** What was still open on the server AFTER_STOP_MS after stop(), when anything was. */
  leftOpenAfterStop?: { sockets: number; watches: number };
  /** Rejections or exceptions that nobody handled while it ran: a default Node process dies of them. */
  unhandled?: string[];
}

interface Row {
  id: string;
  title: string;
  kubeWatch: Outcome;
  reference: Outcome;
}

interface Args {
  only?: Set<string>;
  boundMs: number;
  reference: ReferenceOptions;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { boundMs: DEFAULT_BOUND_MS, reference: { restartOnErrorMs: README_ERROR_RESTART_MS, scaledTime: true } };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') args.only = new Set((argv[++i] ?? '').split(',').map((s) => s.trim().toUpperCase()));
    else if (a === '--bound') args.boundMs = Number(argv[++i]);
    else if (a === '--no-error-restart') args.reference = { ...args.reference, restartOnErrorMs: undefined };
    else if (a === '--real-time-reference') args.reference = { ...args.reference, scaledTime: false };
    else throw new Error(`unknown option ${a}`);
  }
  if (!Number.isFinite(args.boundMs) || args.boundMs <= 0) throw new Error('--bound needs a positive number of milliseconds');
  return args;
}

class BoundExceeded extends Error {}

/** Resolves or rejects with `work`, or rejects after `ms` (the work goes on in the background, its result ignored). */
function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BoundExceeded(`${what}: no result within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function oneLine(v: unknown): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/**
 * For the convergence check, which compares sorted `key uid resourceVersion` lines: how the
 * client's differ from the server's. Undefined for other arrays.
 */
function identityDiff(actual: unknown[], expected: unknown[]): string | undefined {
  const isLine = (l: unknown) => typeof l === 'string' && l.split(' ').length === 3;
  if (!actual.every(isLine) || !expected.every(isLine)) return undefined;
  const byKey = (lines: unknown[]) => new Map(lines.map((l) => [String(l).split(' ')[0], String(l)]));
  const client = byKey(actual);
  const server = byKey(expected);
  const missing = [...server.keys()].filter((k) => !client.has(k)).length;
  const extra = [...client.keys()].filter((k) => !server.has(k)).length;
  const stale = [...server].filter(([k, l]) => client.has(k) && client.get(k) !== l).length;
  if (missing + extra + stale === 0) return undefined;
  return `${missing} missing, ${extra} extra, ${stale} stale of ${server.size}`;
}

function failure(err: unknown): Pick<Outcome, 'reason' | 'detail'> {
  if (!(err instanceof Error)) return { reason: String(err), detail: String(err) };
  let reason = err.message.split('\n')[0].trim() || err.name;
  if (err instanceof AssertionError) {
    const { actual, expected } = err;
    const diff = Array.isArray(actual) && Array.isArray(expected) ? identityDiff(actual, expected) : undefined;
    if (diff) reason = `${reason}: ${diff}`;
    else if (err.generatedMessage || Array.isArray(actual)) {
      reason = `${reason.replace(/:$/, '')} (actual ${oneLine(actual)}, expected ${oneLine(expected)})`;
    }
  }
  return { reason, detail: err.message.slice(0, 4000) };
}

/** Rejections and exceptions nobody handled, attributed to the side running at the time. */
let unhandledSink: string[] | undefined;
const strayProblems: string[] = [];
function onStray(kind: string) {
  return (err: unknown) => {
    const msg = `${kind}: ${err instanceof Error ? describeError(err) : String(err)}`;
    (unhandledSink ?? strayProblems).push(msg);
  };
}

function requestLine(r: RequestRecord, t0: number): string {
  const q = Object.entries(r.query)
    .filter(([k]) => k !== 'watch')
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `+${r.at - t0} ms ${r.verb} ${r.status || '-'}${r.faulted ? ` [${r.faulted}]` : ''}${q ? ` ${q}` : ''}`;
}

/** The last `max` requests and errors, merged in time order. */
function trace(server: FakeApiServer, t0: number, errors: ReadonlyArray<{ at: number; message: string }> = [], max = 40): string[] {
  const lines: Array<[number, string]> = server.requests.filter((r) => r.verb !== 'discovery').map((r) => [r.at - t0, requestLine(r, t0)]);
  for (const e of errors) lines.push([e.at, `+${e.at} ms error event: ${e.message}`]);
  lines.sort((a, b) => a[0] - b[0]);
  return lines.slice(-max).map(([, l]) => l);
}

function countRequests(server: { requests: ReadonlyArray<{ verb: string }> }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of server.requests) out[r.verb] = (out[r.verb] ?? 0) + 1;
  return out;
}

/** One side of a scenario: a context to run it in, how to stop its client, how to close everything. */
interface Side<C extends FaultContext> {
  label: string;
  make(): Promise<C>;
  stopClient(ctx: C): Promise<void>;
  close(ctx: C): Promise<void>;
  /** Time origin and extra lines (the reference's errors) for the trace. */
  traceErrors?(ctx: C): ReadonlyArray<{ at: number; message: string }>;
  origin?(ctx: C): number;
  describe?(ctx: C, outcome: Outcome): void;
}

/**
 * Runs one scenario on one side, the way the test suite runs ours: the scenario within the bound,
 * then stop the client and check that no socket of it stays open on the server (within
 * AFTER_STOP_MS, long enough for idle keep-alive sockets to be closed by the client's pool).
 * Whatever happens, the client is stopped and the server closed.
 */
async function runSide<C extends FaultContext>(scenario: Scenario, side: Side<C>, boundMs: number): Promise<Outcome> {
  const harness: string[] = [];
  const unhandled: string[] = [];
  unhandledSink = unhandled;
  const t0 = Date.now();
  let ctx: C | undefined;
  let outcome: Outcome;
  try {
    const made = await bounded(side.make(), boundMs, `${side.label}: starting the server`);
    ctx = made;
    await bounded(scenario.run(made), boundMs, side.label);
    await bounded(side.stopClient(made), CLEANUP_BOUND_MS, `${side.label}: stop()`);
    outcome = { pass: true, scenarioPassed: true, ms: Date.now() - t0 };
    try {
      await until(() => made.server.openSockets() === 0, 'every client socket to close', AFTER_STOP_MS);
    } catch {
      const left = { sockets: made.server.openSockets(), watches: made.server.openWatches() };
      const what = left.watches ? `${left.watches} watch${left.watches > 1 ? 'es' : ''}` : `${left.sockets} socket${left.sockets > 1 ? 's' : ''}`;
      outcome = {
        pass: false,
        scenarioPassed: true,
        ms: Date.now() - t0,
        leftOpenAfterStop: left,
        reason: `passes the scenario, but ${what} still open ${AFTER_STOP_MS / 1000} s after stop()`,
      };
    }
  } catch (err) {
    outcome = { pass: false, scenarioPassed: false, ms: Date.now() - t0, ...failure(err) };
  }
  unhandledSink = harness;
  if (unhandled.length) {
    // What would have ended a process on Node's defaults counts as a failure whatever else happened.
    outcome.unhandled = unhandled;
    outcome.reason = `${unhandled[0]} (a default Node process dies of it)${outcome.pass ? '' : `; then: ${outcome.reason ?? ''}`}`;
    outcome.pass = false;
    outcome.scenarioPassed = false;
  }
  if (ctx) {
    const c = ctx;
    outcome.requests = countRequests(c.server);
    await bounded(side.close(c), CLEANUP_BOUND_MS, `${side.label}: close`).catch((err: unknown) => harness.push(`cleanup: ${describeError(err)}`));
    side.describe?.(c, outcome);
    if (!outcome.pass || process.env.COMPARE_TRACE) outcome.trace = trace(c.server, side.origin?.(c) ?? t0, side.traceErrors?.(c));
  }
  unhandledSink = undefined;
  if (harness.length) outcome.harness = harness;
  return outcome;
}

/** The scenario's setup on the first server behaviour it is meant for (1.26 unless it says otherwise). */
function setupOf(scenario: Scenario): Scenario['setup'] {
  const behaviour = scenario.servers?.includes('1.26') === false ? scenario.servers[0] : '1.26';
  return { ...scenario.setup, server: { ...SERVER_BEHAVIOURS[behaviour], ...scenario.setup?.server } };
}

const oursSide = (scenario: Scenario): Side<Rig> => ({
  label: 'kube-watch',
  make: () => Rig.start({ ...setupOf(scenario), noStart: scenario.setup?.noStart }),
  async stopClient(rig) {
    await rig.informer.stop();
    rig.transport.dispose();
  },
  close: (rig) => rig.close(),
});

const referenceSide = (scenario: Scenario, opts: ReferenceOptions): Side<ReferenceContext> => ({
  label: '@kubernetes/client-node',
  make: () => ReferenceContext.start(setupOf(scenario), opts),
  stopClient: (ctx) => ctx.stop(),
  close: (ctx) => ctx.close(),
  traceErrors: (ctx) => ctx.errors,
  origin: (ctx) => ctx.startedAt,
  describe(ctx, outcome) {
    // Errors up to and just after close; leftovers after stop() are marked as such.
    outcome.errors = ctx.errorSummary();
  },
});

function cell(o: Outcome, passWord: string, width: number): string {
  // uids make reasons long and say nothing at a glance: keep their first 8 characters.
  const reason = (o.reason ?? 'unknown').replace(/\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '$1');
  const s = o.pass ? passWord : `fails: ${reason}`;
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}

function printTable(rows: Row[]): void {
  const header = ['row', 'scenario', 'kube-watch', '@kubernetes/client-node'];
  const body = rows.map((r) => [
    r.id,
    (() => {
      const t = r.title.slice(3).trim();
      return t.length > 70 ? `${t.slice(0, 69)}…` : t;
    })(),
    cell(r.kubeWatch, 'passes', 60),
    cell(r.reference, 'survives', 90),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
}

function clientNodeVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@kubernetes', 'client-node', 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Runs every row; resolves whether Kube Watch passed them all. */
async function main(): Promise<boolean> {
  const args = parseArgs(process.argv.slice(2));
  process.on('unhandledRejection', onStray('unhandled rejection'));
  process.on('uncaughtException', onStray('uncaught exception'));

  const scenarios = allScenarios.filter((s) => !args.only || args.only.has(scenarioId(s)));
  const restart = args.reference.restartOnErrorMs;
  const scaled = args.reference.scaledTime === true;
  console.log(
    `Fault matrix: kube-watch vs @kubernetes/client-node ${clientNodeVersion()} (makeInformer + listNamespacedConfigMap, ` +
      `${restart === undefined ? 'no restart on error' : `restart ${restart / 1000} s after an 'error' event as its example does`}` +
      `${scaled ? `; its delays and timeouts scaled 1/${SCALE} like the server's` : "; its own delays in real time while the server's run " + SCALE + ' times faster'}); ` +
      `${scenarios.length} scenarios, bound ${args.boundMs / 1000} s each, Node ${process.version}.`,
  );
  console.log(
    `As in the test suite, a client passes a scenario when the scenario passes and, once it is stopped, none of its sockets stays open on the server ` +
      `(here: within ${AFTER_STOP_MS / 1000} s); an unhandled rejection or exception while it runs is a failure (it kills a default Node process).\n`,
  );

  const rows: Row[] = [];
  for (const scenario of scenarios) {
    const id = scenarioId(scenario);
    process.stderr.write(`${scenario.title.slice(0, 100)} ... `);
    const kubeWatch = await runSide(scenario, oursSide(scenario), args.boundMs);
    const reference = await runSide(scenario, referenceSide(scenario, args.reference), args.boundMs);
    process.stderr.write(`kube-watch ${kubeWatch.pass ? 'passes' : 'fails'} (${kubeWatch.ms} ms), reference ${reference.pass ? 'survives' : 'fails'} (${reference.ms} ms)\n`);
    rows.push({ id, title: scenario.title, kubeWatch, reference });
  }

  console.log('');
  printTable(rows);
  const refOk = rows.filter((r) => r.reference.pass).length;
  const oursOk = rows.filter((r) => r.kubeWatch.pass).length;
  const summary = `reference survives ${refOk} of ${rows.length} scenarios; kube-watch ${oursOk} of ${rows.length}`;
  const refScenario = rows.filter((r) => r.reference.scenarioPassed).length;
  const oursScenario = rows.filter((r) => r.kubeWatch.scenarioPassed).length;
  const lenient =
    refScenario !== refOk || oursScenario !== oursOk
      ? `Not counting what is left open after stop(): reference ${refScenario} of ${rows.length}; kube-watch ${oursScenario} of ${rows.length}.`
      : undefined;
  console.log(`\n${summary}`);
  if (lenient) console.log(lenient);

  const notes = rows.filter((r) => r.reference.errors?.length || r.reference.harness?.length || r.kubeWatch.harness?.length);
  if (notes.length) {
    console.log("\nWhat the reference reported on its 'error' event (besides the AbortError every stop() fires), and anything unhandled:");
    for (const r of notes) {
      const errors = (r.reference.errors ?? []).filter((e) => !e.startsWith('[after stop] AbortError'));
      const bits = [...errors, ...(r.reference.harness ?? []).map((h) => `harness: ${h}`)];
      if (!bits.length && !r.kubeWatch.harness?.length) continue;
      if (r.kubeWatch.harness?.length) bits.push(...r.kubeWatch.harness.map((h) => `kube-watch harness: ${h}`));
      console.log(`  ${r.id} ${r.title.slice(4, 60)}…: ${bits.join('; ')}`);
    }
  }
  if (strayProblems.length) console.log(`\nOutside any scenario: ${strayProblems.join('; ')}`);

  const outDir = join(ROOT, 'test-results');
  mkdirSync(outDir, { recursive: true });
  const report = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    reference: { package: '@kubernetes/client-node', version: clientNodeVersion(), restartOnErrorMs: restart ?? null, scaledTime: scaled },
    boundMs: args.boundMs,
    afterStopMs: AFTER_STOP_MS,
    summary: {
      scenarios: rows.length,
      referenceSurvives: refOk,
      kubeWatchPasses: oursOk,
      referenceScenarioOnly: refScenario,
      kubeWatchScenarioOnly: oursScenario,
      text: summary,
    },
    rows,
  };
  writeFileSync(join(outDir, 'compare.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nRows written to ${join('test-results', 'compare.json')}`);
  const oursFailed = rows.filter((r) => !r.kubeWatch.pass);
  if (oursFailed.length) console.log(`\nkube-watch fails ${oursFailed.length} row(s): ${oursFailed.map((r) => r.id).join(', ')}`);
  return oursFailed.length === 0;
}

main().then(
  // The reference may leave a reconnect delay or a straggling request behind: do not wait for it.
  (oursPassed) => process.exit(oursPassed ? 0 : 1),
  (err: unknown) => {
    console.error('compare harness crashed:', err);
    process.exit(1);
  },
);
