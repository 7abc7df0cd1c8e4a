import type { Clock } from '../../src/base/clock';
import type { InformerOptions } from '../../src/informer/informer';
import type { FakeApiServer, FakeApiServerOptions } from '../support/apiserver';
import type { ClientUnderTest } from './client-under-test';
import type { Rig } from './rig';

/** What a fault scenario may use: the server, the client under test, and object helpers. */
export interface FaultContext {
  readonly server: FakeApiServer;
  readonly namespace: string;
  readonly client: ClientUnderTest;
  createObject(name?: string, namespace?: string): void;
  updateObject(name: string, value: string, namespace?: string): void;
  deleteObject(name: string, namespace?: string): void;
  /** Asserts the client syncs within the bound. */
  synced(): Promise<void>;
  /** Asserts docs/fault-matrix.md's convergence within the bound. */
  converged(): Promise<void>;
  /** Our informer's rig, for checks of state and lifecycle; undefined when running the reference. */
  readonly ours?: Rig;
}

/**
 * One row (or one aspect of a row) of docs/fault-matrix.md. The title starts with the row's id. The same
 * scenario runs against our informer in the test suite and against @kubernetes/client-node's
 * informer in `npm run compare`.
 */
export interface Scenario {
  title: string;
  /**
   * The server behaviours the scenario is meaningful on (default: all of SERVER_BEHAVIOURS).
   * A scenario limited to some says why in a comment.
   */
  servers?: ServerBehaviour[];
  setup?: {
    server?: FakeApiServerOptions;
    /** Options for our informer only. */
    informer?: Partial<InformerOptions>;
    initialObjects?: number;
    /** Leave the client stopped; the scenario starts it. */
    noStart?: boolean;
    /** Our transport's timer clock, when it must differ from the informer's (see RigOptions). */
    transportClock?: Clock;
  };
  run(ctx: FaultContext): Promise<void>;
}

/** The fault-row id a scenario's title starts with, e.g. `F09`. */
export function scenarioId(s: Scenario): string {
  return s.title.slice(0, 3);
}

/**
 * The API server generations the fault matrix runs against: 1.26 (no streaming list: the
 * WatchList request is refused with 422 and the informer uses the paginated LIST), 1.33 (the
 * WatchList gate off: 422 too), 1.34 (streaming lists), and 1.34 without the watch cache.
 */
export const SERVER_BEHAVIOURS = {
  '1.26': { version: '1.26' },
  '1.33': { version: '1.33' },
  '1.34': { version: '1.34' },
  'no watch cache': { version: '1.34', watchCache: false },
} as const satisfies Record<string, FakeApiServerOptions>;

export type ServerBehaviour = keyof typeof SERVER_BEHAVIOURS;

/**
 * Informer options the rig uses per behaviour unless a scenario sets them. On a streaming server
 * the first watch is the streaming list itself, and scenarios whose faults target a later plain
 * watch wait for it to reach its timeout: a shorter watch ([60, 120) s, 0.24 to 0.48 s real)
 * keeps the suite fast without changing what is checked.
 */
export const BEHAVIOUR_INFORMER_DEFAULTS: Record<ServerBehaviour, Partial<InformerOptions>> = {
  '1.26': {},
  '1.33': {},
  '1.34': { minWatchTimeoutSeconds: 60 },
  'no watch cache': { minWatchTimeoutSeconds: 60 },
};

/** The behaviours on which the informer lists by paginated LIST. */
export const LIST_SERVERS: ServerBehaviour[] = ['1.26', '1.33'];
/** The behaviours on which the informer lists by streaming list. */
export const STREAMING_SERVERS: ServerBehaviour[] = ['1.34', 'no watch cache'];
