import { ApiError, fieldManager } from '../base';
import { collectionPath, groupVersion, type KubeObject, type KubeTransport, type ResourceType } from '../informer';
import { identityOf, parseBuffer, type BufferProblem, type EditedIdentity } from './buffer-problems';
import { editableText, objectToSave, type EditableOptions } from './editable-object';
import { objectMergeShape } from './merge-keys/object-merge-shape';
import type { MergeShape } from './merge-keys/merge-shape';
import { pathText, type FieldPath } from './field-path';
import { refusalOf, type Refusal } from './refusal';
import { changedBy, serverChange, type ServerChange } from './server-change';
import { changedPaths, sameValue, threeWayMerge, type MergeConflict } from './three-way-merge';

/**
 * One object being edited: the version the edit started from (`base`), the live object as the
 * watch delivers it, and the save. Invariants:
 * - `base` moves only when the buffer is rendered anew from the live object (opened, reverted,
 *   reloaded after a save) or when a rebase or merge makes the buffer stand on a newer version;
 * - a save never overwrites a change it did not see: it updates with `base`'s resourceVersion
 *   (optimistic concurrency), or, when the object moved on, merges three ways and updates with
 *   the live resourceVersion; overlapping changes are handed back as a conflict, unsent;
 * - nothing is sent for a buffer with problems;
 * - nothing here retries a write by itself, but a 409 at save takes the merge path once, with
 *   the object read again.
 */

/** Where the object is: its type and name, and the transport of its context now. */
export interface EditTarget {
  type: ResourceType;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
  transport(): KubeTransport | undefined;
}

/** A write the edit made, for the watch log and the tree's pending marks (the write journal's hook). */
export interface EditWrite {
  verb: 'update' | 'apply';
  target: EditTarget;
  dryRun: boolean;
  /** The resourceVersion the server answered with; undefined when it refused or did not answer. */
  resourceVersion?: string;
  /** `ok`, or the refusal in words. */
  result: string;
}

/** A write about to be sent, as a write journal records it. */
export interface EditWriteStart {
  verb: EditWrite['verb'];
  target: EditTarget;
  dryRun: boolean;
  /** What the write changes, in a few words (`data.DB_POOL, data.TIMEOUT`); '' when unknown. */
  summary: string;
}

/**
 * Where an edit's writes are recorded (the actions' write journal, which keeps a write pending on
 * its row until the watch shows it): begun before sending, told the outcome after.
 */
export interface EditJournal {
  begin(write: EditWriteStart): { succeeded(answer: unknown): void; failed(err: unknown, words: string): void } | undefined;
}

export type SaveOutcome =
  | { kind: 'problems'; problems: BufferProblem[] }
  | { kind: 'saved'; object: KubeObject; unchanged: boolean; rebased?: { fields: FieldPath[]; manager?: string } }
  | { kind: 'conflict'; conflicts: MergeConflict[]; base: KubeObject; theirs: KubeObject; ours: KubeObject }
  | { kind: 'refused'; refusal: Refusal };

export interface EditSessionOptions {
  hideServerFields: boolean;
  /** Called after every write with its outcome. */
  onWrite?: (write: EditWrite) => void;
  /** Records every write from before it is sent until the watch shows it. */
  journal?: EditJournal;
  now?: () => number;
  /** The CustomResourceDefinition of the edited type when it is custom (its list types guide the merge); undefined for built-in types or when unknown. */
  customResourceDefinition?: () => KubeObject | undefined;
}

export class EditSession {
  private baseObject: KubeObject;
  private revealedSecrets = false;
  private binary: string[] = [];
  private liveObject: KubeObject | undefined;
  private liveAt = 0;
  private liveWithManagers: KubeObject | undefined;
  readonly identity: EditedIdentity;

  constructor(
    readonly target: EditTarget,
    initial: KubeObject,
    private readonly options: EditSessionOptions,
  ) {
    this.baseObject = withoutManagedFields(initial);
    this.liveObject = this.baseObject;
    this.identity = identityOf(initial, target.type.kind, groupVersion(target.type));
  }

  /** "ConfigMap shop/web" */
  get what(): string {
    return `${this.identity.kind} ${this.target.namespace ? `${this.target.namespace}/` : ''}${this.target.name}`;
  }

  get base(): KubeObject {
    return this.baseObject;
  }

  get live(): KubeObject | undefined {
    return this.liveObject;
  }

  get revealed(): boolean {
    return this.revealedSecrets;
  }

  get isSecret(): boolean {
    return this.identity.kind === 'Secret';
  }

  get binaryKeys(): readonly string[] {
    return this.binary;
  }

  /** The object's own path: `/api/v1/namespaces/shop/configmaps/web`. */
  get path(): string {
    return `${collectionPath(this.target.type, this.target.namespace || undefined)}/${encodeURIComponent(this.target.name)}`;
  }

  private editable(): EditableOptions {
    return { kind: this.identity.kind, apiVersion: this.identity.apiVersion, hideServerFields: this.options.hideServerFields, revealSecrets: this.revealedSecrets };
  }

  /** The text of `base` as the editor shows it. */
  render(): string {
    const { text, binaryKeys } = editableText(this.baseObject, this.editable());
    this.binary = binaryKeys;
    return text;
  }

  /** The buffer stands on the live object from now on (a reload): `base` becomes it. */
  rebaseOnLive(): void {
    if (this.liveObject) this.baseObject = this.liveObject;
  }

  /** Shows Secret values as text (true) or masked; the caller re-renders. */
  setRevealed(revealed: boolean): void {
    this.revealedSecrets = revealed;
  }

  /** The watch delivered a version of the object (undefined: it is gone); `at` when it arrived. */
  noteLive(obj: KubeObject | undefined, at = this.now()): void {
    if (obj?.metadata.resourceVersion !== this.liveObject?.metadata.resourceVersion) this.liveAt = at;
    this.liveObject = obj && withoutManagedFields(obj);
  }

  /** The live object as the server has it, managedFields included (read for the notice's manager). */
  noteManagedFields(obj: KubeObject): void {
    this.liveWithManagers = obj;
  }

  /** What changed on the server since `base`, for the notice; undefined when nothing the user sees. */
  serverChange(): ServerChange | undefined {
    if (!this.liveObject) return undefined;
    return serverChange(this.baseObject, this.liveObject, this.liveAt, this.liveWithManagers);
  }

  /** Parses and checks a buffer: its problems (empty when it may be sent). */
  problems(text: string): BufferProblem[] {
    return parseBuffer(text, this.identity, { revealed: this.revealedSecrets, base: this.baseObject, binaryKeys: this.binary }).problems;
  }

  /** The object a buffer means (the server fields put back from `base`), or its problems. */
  objectOf(text: string): { object: KubeObject } | { problems: BufferProblem[] } {
    const parsed = parseBuffer(text, this.identity, { revealed: this.revealedSecrets, base: this.baseObject, binaryKeys: this.binary });
    if (!parsed.object) return { problems: parsed.problems };
    return { object: objectToSave(parsed.object, this.baseObject, { ...this.editable(), binaryKeys: this.binary }) };
  }

  /**
   * Merges the buffer onto the live object now (Rebase my edit): the merged object, which the
   * caller renders into the buffer and then makes `base` with `adopt`; or the conflicts.
   */
  rebase(text: string): { merged: KubeObject; fields: FieldPath[] } | { conflicts: MergeConflict[]; theirs: KubeObject; ours: KubeObject } | { problems: BufferProblem[] } {
    const ours = this.objectOf(text);
    if ('problems' in ours) return ours;
    const live = this.liveObject ?? this.baseObject;
    const m = threeWayMerge(this.baseObject, live, ours.object, this.mergeShape());
    if (m.conflicts.length > 0) return { conflicts: m.conflicts, theirs: live, ours: ours.object };
    return { merged: m.merged as KubeObject, fields: m.theirsChanged };
  }

  /** The buffer now stands on `version` (after a rebase or a merge): it becomes `base`. */
  adopt(version: KubeObject): void {
    this.baseObject = withoutManagedFields(version);
  }

  /** Renders `obj` as the editor would show it (merge inputs, rebased buffers). */
  renderObject(obj: KubeObject): string {
    return editableText(obj, this.editable()).text;
  }

  /** Saves the buffer as an update (see the class comment). */
  async save(text: string, signal: AbortSignal): Promise<SaveOutcome> {
    const ours = this.objectOf(text);
    if ('problems' in ours) return { kind: 'problems', problems: ours.problems };
    const recreated = this.recreated();
    if (recreated) return { kind: 'refused', refusal: recreated };
    if (sameValue(strip(ours.object), strip(this.baseObject)) && this.liveObject?.metadata.resourceVersion === this.baseObject.metadata.resourceVersion) {
      return { kind: 'saved', object: this.baseObject, unchanged: true };
    }
    let live = this.liveObject ?? this.baseObject;
    for (let attempt = 0; ; attempt++) {
      const moved = live.metadata.resourceVersion !== this.baseObject.metadata.resourceVersion;
      let body = ours.object;
      let rebased: { fields: FieldPath[]; manager?: string } | undefined;
      if (moved) {
        const m = threeWayMerge(this.baseObject, live, ours.object, this.mergeShape());
        if (m.conflicts.length > 0) return { kind: 'conflict', conflicts: m.conflicts, base: this.baseObject, theirs: live, ours: ours.object };
        body = m.merged as KubeObject;
        rebased = { fields: m.theirsChanged.filter((p) => p[0] !== 'metadata' || (p[1] !== 'resourceVersion' && p[1] !== 'managedFields' && p[1] !== 'generation')) };
      }
      const sent = { ...body, metadata: { ...body.metadata, resourceVersion: live.metadata.resourceVersion, managedFields: undefined } };
      const summary = changedPaths(strip(this.baseObject), strip(ours.object), this.mergeShape()).slice(0, 3).map(pathText).join(', ');
      try {
        const saved = await this.write<KubeObject>('update', { method: 'PUT', path: this.path, query: { fieldManager: fieldManager() }, body: JSON.stringify(sent) }, signal, summary);
        if (rebased) rebased.manager = changedBy(saved, rebased.fields);
        this.baseObject = withoutManagedFields(saved);
        if (!this.liveObject || newer(this.baseObject, this.liveObject)) this.liveObject = this.baseObject;
        return { kind: 'saved', object: this.baseObject, unchanged: false, ...(rebased ? { rebased } : {}) };
      } catch (err) {
        if (err instanceof ApiError && err.code === 409 && err.reason === 'Conflict' && attempt === 0) {
          // The object moved on between the watch and the server: read it, and take the merge path.
          const fresh = await this.read(signal).catch((e: unknown) => e);
          if (fresh instanceof Error || fresh === undefined) return { kind: 'refused', refusal: refusalOf(fresh ?? err, this.what, text, ours.object, this.isSecret) };
          this.noteLive(fresh as KubeObject);
          live = this.liveObject ?? withoutManagedFields(fresh as KubeObject);
          continue;
        }
        return { kind: 'refused', refusal: refusalOf(err, this.what, text, ours.object, this.isSecret) };
      }
    }
  }

  /** The object was deleted and created again while edited (another uid): an edit of the old one is not saved onto the new one. */
  recreated(): Refusal | undefined {
    const was = this.baseObject.metadata.uid;
    const now = this.liveObject?.metadata.uid;
    if (!was || !now || was === now) return undefined;
    return {
      message: `${this.what} was deleted and created again on the server while you edited it: nothing was saved. Your edit is kept; Save As… keeps it in a file, Revert File opens the new object.`,
      problems: [],
      unreachable: false,
      gone: true,
      code: 0,
    };
  }

  /** GET of the object as the server has it now (managedFields included). */
  async read(signal: AbortSignal): Promise<KubeObject> {
    const transport = this.target.transport();
    if (!transport) throw new Error(`no connection to the cluster of ${this.what}`);
    return transport.getJson<KubeObject>(this.path, {}, signal);
  }

  /** One write through the context's transport, reported to `onWrite` whatever its outcome. */
  async write<T extends KubeObject>(verb: EditWrite['verb'], request: Parameters<NonNullable<KubeTransport['write']>>[0], signal: AbortSignal, summary = ''): Promise<T> {
    const transport = this.target.transport();
    const dryRun = request.query?.dryRun === 'All';
    const handle = this.options.journal?.begin({ verb, target: this.target, dryRun, summary });
    if (!transport?.write) {
      const err = new Error(`no connection to the cluster of ${this.what}`);
      handle?.failed(err, err.message);
      this.options.onWrite?.({ verb, target: this.target, dryRun, result: err.message });
      throw err;
    }
    try {
      const answer = await transport.write<T>(request, signal);
      handle?.succeeded(answer);
      this.options.onWrite?.({ verb, target: this.target, dryRun, resourceVersion: answer?.metadata?.resourceVersion, result: 'ok' });
      return answer;
    } catch (err) {
      const result = err instanceof ApiError ? `${err.code} ${err.reason}` : err instanceof Error ? err.message : String(err);
      handle?.failed(err, refusalOf(err, this.what, '', undefined, this.isSecret).message);
      this.options.onWrite?.({ verb, target: this.target, dryRun, result });
      throw err;
    }
  }

  /** How the object's lists merge (merge keys of its type), as the merge, its summaries and the apply's intent read them. */
  mergeShape(): MergeShape {
    return objectMergeShape(this.identity.apiVersion, this.identity.kind, this.options.customResourceDefinition?.());
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** True when `a` is a later version than `b` (resourceVersions compared as numbers where they are). */
function newer(a: KubeObject, b: KubeObject): boolean {
  const ra = a.metadata.resourceVersion;
  const rb = b.metadata.resourceVersion;
  if (ra === undefined || rb === undefined || !/^\d+$/.test(ra) || !/^\d+$/.test(rb)) return ra !== rb;
  return Number(ra) > Number(rb);
}

/** A copy without managedFields (the watch drops them; a GET or a write's answer has them): they never merge or count as an edit. */
export function withoutManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata.managedFields === undefined) return obj;
  return { ...obj, metadata: { ...obj.metadata, managedFields: undefined } };
}

/** An object without what the server writes on every change (for "did the edit change anything"). */
function strip(obj: KubeObject): unknown {
  return { ...obj, metadata: { ...obj.metadata, managedFields: undefined, resourceVersion: undefined } };
}
