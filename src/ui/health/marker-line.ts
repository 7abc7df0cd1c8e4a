import type { TimedLifecycleEvent } from '../../informer';
import { formatLifecycleEvent, redactCredentials } from '../log';

/** A marker's hover text: the line the log shows for its event, credentials redacted. */
export function markerLine(label: string, event: TimedLifecycleEvent): string {
  return redactCredentials(formatLifecycleEvent(label, event).message);
}
