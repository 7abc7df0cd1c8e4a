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
  setup?: {
    server?: FakeApiServerOptions;
    /** Options for our informer only. */
    informer?: Partial<InformerOptions>;
    initialObjects?: number;
    /** Leave the client stopped; the scenario starts it. */
    noStart?: boolean;
  };
  run(ctx: FaultContext): Promise<void>;
}

/** The fault-row id a scenario's title starts with, e.g. `F09`. */
export function scenarioId(s: Scenario): string {
  return s.title.slice(0, 3);
}
