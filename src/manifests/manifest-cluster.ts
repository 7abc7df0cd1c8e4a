import type { Disposable } from '../base';
import type { InformerState, KubeObject, ResourceType } from '../informer';
import type { WriteRequest } from '../informer/transport';
import type { ObjectOrigin } from '../manager';

/**
 * What the manifests engine needs of the cluster, as a port (a WatchManager adapter in
 * manager-cluster.ts, fakes in tests): the context to compare with, discovery, a watch of one
 * object (the tree's informer when it already watches the type there, else an ad-hoc watch of
 * that name), and writes pinned to the origin they were planned on.
 */

/** One object's watch: its informer's state and the object it holds now. */
export interface ObjectWatch extends Disposable {
  state(): InformerState;
  object(): KubeObject | undefined;
  /** Fires on any change of the object or of the watch's state. */
  onDidChange(listener: () => void): Disposable;
}

/**
 * The objects of one type in one namespace (all namespaces when undefined): one watch that many
 * documents share, each picking its own name.
 */
export interface TypeWatch extends Disposable {
  state(): InformerState;
  get(name: string): KubeObject | undefined;
  /** Fires with the name of an object that changed, or undefined when the watch's state changed. */
  onDidChange(listener: (name: string | undefined) => void): Disposable;
}

/** The context a workspace compares with: its spec in the manager, its name and default namespace. */
export type ManifestTarget = { spec: string; context: string; namespace: string } | { problem: string };

export type KindResolution = { type: ResourceType } | { unknown: string } | { problem: string };

export interface ManifestCluster {
  /** The context the documents of `uri` compare with (their workspace folder's choice); the workspace's default without one. */
  target(uri?: string): ManifestTarget;
  /** The type serving `apiVersion`/`kind` on `spec` (discovery); never throws. */
  resolve(spec: string, apiVersion: string, kind: string, signal: AbortSignal): Promise<KindResolution>;
  /** One object alone (a `metadata.name=` watch, or the tree's informer when it covers it). */
  watch(spec: string, type: ResourceType, namespace: string | undefined, name: string): ObjectWatch;
  /** Every object of the type in the namespace (or the tree's informer when it covers them). */
  watchAll(spec: string, type: ResourceType, namespace: string | undefined): TypeWatch;
  /** Where a write on `spec` now would go (of `object`, when it exists); undefined when the context is unusable. */
  origin(spec: string, object?: KubeObject): ObjectOrigin | undefined;
  /** A write on the connection of `origin` (the same cluster and user), or a refusal thrown in words (W01). */
  write<T>(origin: ObjectOrigin, request: WriteRequest, signal: AbortSignal): Promise<T>;
  /** A read on the connection of `origin` (kubectl diff's fresh GET of the live object). */
  read<T>(origin: ObjectOrigin, path: string, signal: AbortSignal): Promise<T>;
  /** Fires when the target or discovery changed (a context switch, a setting, a new CRD). */
  onDidChange(listener: () => void): Disposable;
}
