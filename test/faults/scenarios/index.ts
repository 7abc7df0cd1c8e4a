import type { Scenario } from '../scenario';
import { deltaScenarios } from './deltas';
import { expiryScenarios } from './expiry';
import { incompleteListScenarios } from './incomplete-lists';
import { reconnectScenarios } from './reconnect';
import { refusalScenarios } from './refusals';
import { restartScenarios } from './restart';
import { servedVersionScenarios } from './served-versions';
import { streamScenarios } from './stream';
import { streamingListScenarios } from './streaming-list';

/** Every fault scenario, in docs/fault-matrix.md order of their ids. */
export const allScenarios: Scenario[] = [
  ...expiryScenarios,
  ...reconnectScenarios,
  ...deltaScenarios,
  ...refusalScenarios,
  ...streamScenarios,
  ...restartScenarios,
  ...servedVersionScenarios,
  ...streamingListScenarios,
  ...incompleteListScenarios,
].sort((a, b) => a.title.slice(0, 3).localeCompare(b.title.slice(0, 3)));
