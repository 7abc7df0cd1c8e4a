/** What the tree shows as a Pod's title (src/ui/tree/short-name.ts): the generated parts of its name left out. */
import type { KubeObject } from '../../../src/informer';
import { podTitle } from '../../../src/ui/tree/short-name';

export function podRowTitle(pod: KubeObject): string {
  return podTitle(pod);
}
