import type { KubeObject } from '../informer';
import { DescribeWriter, type Description } from './describe-writer';
import { eventsSection } from './events-section';
import { DESCRIBERS } from './describers';
import { describeGeneric } from './generic-describer';
import type { RelatedObjects } from './related-objects';

export function hasDedicatedDescriber(kind: string): boolean {
  return DESCRIBERS.has(kind);
}

export interface DescribeOptions {
  kind: string;
  apiVersion: string;
  /** The object's Events (any order); undefined when they are not known (no section then). */
  events?: readonly KubeObject[];
  now: number;
  /** Objects the description shows besides its own (a Service's EndpointSlices). */
  related?: RelatedObjects;
  /** Lines put first, e.g. the stale banner or "deleted at …", followed by an empty line. */
  banner?: readonly string[];
  /** Lines put after the describer's and before the Events (a pod's or node's usage from metrics.k8s.io). */
  extra?: readonly string[];
}

/** The description of an object as `kubectl describe` prints it, then its Events. Never throws on odd objects. */
export function describeObject(obj: KubeObject, options: DescribeOptions): Description {
  const w = new DescribeWriter();
  if (options.banner && options.banner.length > 0) {
    for (const line of options.banner) w.line(0, line);
    w.line(0, '');
    w.flush();
  }
  const describer = DESCRIBERS.get(options.kind);
  let body: DescribeWriter;
  try {
    body = describer ? describer(obj, options.now, options.related ?? {}) : describeGeneric(obj, options.kind, options.apiVersion);
  } catch {
    // A describer met a shape it did not expect: the generic one still shows everything.
    body = describeGeneric(obj, options.kind, options.apiVersion);
  }
  w.append(body);
  for (const line of options.extra ?? []) w.line(0, line);
  if (options.events) w.append(eventsSection(options.events, options.now));
  return w.render();
}
