import type { KubeObject } from '../informer';
import type { DescribeWriter } from './describe-writer';
import { describeEndpointSlice } from './endpointslice-describer';
import type { RelatedObjects } from './related-objects';
import { describeConfigMap } from './configmap-describer';
import { describeCronJob } from './cronjob-describer';
import { describeDaemonSet } from './daemonset-describer';
import { describeDeployment } from './deployment-describer';
import { describeIngress } from './ingress-describer';
import { describeJob } from './job-describer';
import { describeNode } from './node-describer';
import { describePod } from './pod-describer';
import { describePersistentVolumeClaim } from './pvc-describer';
import { describeReplicaSet } from './replicaset-describer';
import { describeSecret } from './secret-describer';
import { describeService } from './service-describer';
import { describeStatefulSet } from './statefulset-describer';

/** A describer of one kind: the description's lines before Events (`related`: what other watches of the description know). */
export type Describer = (obj: KubeObject, now: number, related: RelatedObjects) => DescribeWriter;

/** The dedicated describers, by kind; every other kind gets the generic one. */
export const DESCRIBERS: ReadonlyMap<string, Describer> = new Map<string, Describer>([
  ['Pod', describePod],
  ['Deployment', describeDeployment],
  ['ReplicaSet', describeReplicaSet],
  ['StatefulSet', describeStatefulSet],
  ['DaemonSet', describeDaemonSet],
  ['Job', describeJob],
  ['CronJob', describeCronJob],
  ['Service', describeService],
  ['EndpointSlice', describeEndpointSlice],
  ['Node', describeNode],
  ['PersistentVolumeClaim', describePersistentVolumeClaim],
  ['ConfigMap', describeConfigMap],
  ['Secret', describeSecret],
  ['Ingress', describeIngress],
]);
