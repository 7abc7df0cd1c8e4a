import { ApiError, fieldManager, hasInexactInteger, stringifyExactJson } from '../base';
import { collectionPath, groupVersion, type KubeObject, type KubeTransport, type ResourceType, type WriteRequest } from '../informer';
import { isOriginRefusal, type ObjectOrigin, type OriginResolution } from '../manager/object-origin';
import { identityOf, parseBuffer, type BufferProblem, type EditedIdentity } from './buffer-problems';
import { editableText, objectToSave, type EditableOptions } from './editable-object';
import { objectMergeShape } from './merge-keys/object-merge-shape';
import type { MergeShape } from './merge-keys/merge-shape';
import { pathText, type FieldPath } from './field-path';
import { objectToCreate, saveRequest } from './merge-patch';
import { OriginRefused } from './origin-refused';
import { refusalOf, type Refusal } from './refusal';
import { withSecretValue } from './secret-value';
import { changedBy, serverChange, type ServerChange } from './server-change';
import { changedPaths, sameValue, threeWayMerge, type MergeConflict } from './three-way-merge';
import { deletedRefusal, newObjectRefusal, wrongClusterRefusal } from './write-refusals';

/**
 * One object being edited: the version the edit started from (`base`), the live object as the
 * watch delivers it, and the save. Invariants:
 * - `base` moves only when the buffer is rendered anew from the live object (opened, reverted,
 *   reloaded after a save) or when a rebase or merge makes the buffer stand on a newer version;
 * - a save never overwrites a change it did not see: it patches with `base`'s resourceVersion
 *   (optimistic concurrency), or, when the object moved on, merges three ways and patches with
 *   the live resourceVersion; overlapping changes are handed back as a conflict, unsent;
 * - a save is a JSON merge patch carrying the resourceVersion and the uid (merge-patch.ts): it
 *   can never create the object again, nor land on another object under the same name;
 * - every request goes through the origin's connection (the cluster the object was read from),
 *   resolved anew for each request; when it no longer resolves, nothing is sent (W01);
 * - nothing is sent once the watch showed the object deleted (W03) or another uid under its
 *   name, and that uid is checked again at every re-read (W04);
 * - nothing is sent for a buffer with problems;
 * - nothing here retries a write by itself, but a 409 at save takes the merge path once, with
 *   the object read again; nothing is queued to be sent later (W16).
 */

/** Where the object is: its type and name, where it was read, and how to reach that cluster now. */
export interface EditTarget {
  type: ResourceType;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
  /** Where the object was read (context, server, user, uid): its writes go there or nowhere. */
  readonly origin: ObjectOrigin;
  /** The origin's connection now, or why there is none (WatchManager.resolveOrigin). */
  connect(origin: ObjectOrigin): OriginResolution;
}

/** A write the edit made, for the watch log and the tree's pending marks (the write journal's hook). */
export interface EditWrite {
  verb: 'update' | 'apply' | 'create';
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
  /** When the watch showed the object deleted (W03); undefined while it exists or is merely unwatched. */
  private deletedAt: number | undefined;
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

  /**
   * The watch delivered a version of the object, or none: `'deleted'` (the default) when it showed
   * the object deleted (a save is never sent then, W03), `'unwatched'` when its watch stopped or
   * moved to another cluster (a save may still go to the origin, where a missing object is a 404).
   * `at`: when it arrived.
   */
  noteLive(obj: KubeObject | undefined, at = this.now(), gone: 'deleted' | 'unwatched' = 'deleted'): void {
    if (obj?.metadata.resourceVersion !== this.liveObject?.metadata.resourceVersion) this.liveAt = at;
    this.liveObject = obj && withoutManagedFields(obj);
    if (obj) this.deletedAt = undefined;
    else if (gone === 'deleted') this.deletedAt ??= at;
  }

  /** When the watch showed the object deleted, if it did (and it was not created again since). */
  get deletedSince(): number | undefined {
    return this.deletedAt;
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
    return this.saveObject(ours.object, text, signal);
  }

  /**
   * Saves `base` with one Secret value changed (`data[key]` to `base64`), as a save of the buffer
   * would (W12: a revealed value is changed this way, never in an unsaved buffer).
   */
  async saveValue(key: string, base64: string, signal: AbortSignal): Promise<SaveOutcome> {
    const object = withSecretValue(this.baseObject, key, base64);
    return this.saveObject(object, this.renderObject(object), signal);
  }

  /** Saves `object`, which `text` shows (see the class comment). */
  private async saveObject(object: KubeObject, text: string, signal: AbortSignal): Promise<SaveOutcome> {
    const ours = { object };
    const unsendable = this.unsendable();
    if (unsendable) return { kind: 'refused', refusal: unsendable };
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
      const request = saveRequest(this.path, live, body, this.baseObject.metadata.uid, fieldManager());
      const summary = changedPaths(strip(this.baseObject), strip(ours.object), this.mergeShape()).slice(0, 3).map(pathText).join(', ');
      try {
        const saved = await this.write<KubeObject>('update', request, signal, summary);
        if (rebased) rebased.manager = changedBy(saved, rebased.fields);
        this.baseObject = withoutManagedFields(saved);
        if (!this.liveObject || newer(this.baseObject, this.liveObject)) this.liveObject = this.baseObject;
        return { kind: 'saved', object: this.baseObject, unchanged: false, ...(rebased ? { rebased } : {}) };
      } catch (err) {
        if (err instanceof ApiError && err.code === 409 && err.reason === 'Conflict' && attempt === 0) {
          // The object moved on between the watch and the server: read it, and take the merge path.
          const fresh = await this.read(signal).catch((e: unknown) => e);
          if (fresh instanceof Error || fresh === undefined) return { kind: 'refused', refusal: this.refusalOf(fresh ?? err, text, ours.object) };
          this.noteLive(fresh as KubeObject);
          // The re-read is checked as the first read was: another uid is another object (W04).
          const again = this.unsendable();
          if (again) return { kind: 'refused', refusal: again };
          live = this.liveObject ?? withoutManagedFields(fresh as KubeObject);
          continue;
        }
        return { kind: 'refused', refusal: this.refusalOf(err, text, ours.object) };
      }
    }
  }

  /** The object was deleted and created again while edited (another uid): an edit of the old one is not saved onto the new one (W04). */
  recreated(): Refusal | undefined {
    const was = this.baseObject.metadata.uid;
    const now = this.liveObject?.metadata.uid;
    if (!was || !now || was === now) return undefined;
    return newObjectRefusal(this.what, this.liveObject?.metadata.creationTimestamp);
  }

  /** Why nothing may be sent for this object now: its cluster moved (W01), it was deleted (W03), or re-created (W04). */
  unsendable(): Refusal | undefined {
    const connection = this.target.connect(this.target.origin);
    if (isOriginRefusal(connection)) return wrongClusterRefusal(connection.refused);
    if (this.deletedAt !== undefined && !this.liveObject) return deletedRefusal(this.what, this.deletedAt);
    return this.recreated();
  }

  /**
   * Save As New Object…: creates the object from the buffer (a POST without uid and
   * resourceVersion) on the origin's cluster, after the user confirmed it; the buffer then stands
   * on the created object. The one way an edit brings a deleted object back (W03).
   */
  async createAsNew(text: string, signal: AbortSignal): Promise<SaveOutcome> {
    const ours = this.objectOf(text);
    if ('problems' in ours) return { kind: 'problems', problems: ours.problems };
    const body = objectToCreate(ours.object);
    const request: WriteRequest = { method: 'POST', path: collectionPath(this.target.type, this.target.namespace || undefined), query: { fieldManager: fieldManager() }, body: stringifyExactJson(body) };
    try {
      const created = await this.write<KubeObject>('create', request, signal, 'created from the edit');
      this.baseObject = withoutManagedFields(created);
      this.liveObject = this.baseObject;
      this.deletedAt = undefined;
      return { kind: 'saved', object: this.baseObject, unchanged: false };
    } catch (err) {
      return { kind: 'refused', refusal: this.refusalOf(err, text, ours.object) };
    }
  }

  /** A failed request in words; a 404 of a save is the object deleted (W03), said so. */
  private refusalOf(err: unknown, text: string, object: unknown): Refusal {
    if (err instanceof ApiError && err.code === 404) return deletedRefusal(this.what, undefined);
    // The uid in the patch is not the object's: the server says "metadata.uid … field is immutable" (W02).
    if (err instanceof ApiError && err.code === 422 && err.status.details?.causes?.some((c) => c.field === 'metadata.uid')) return newObjectRefusal(this.what, undefined);
    return refusalOf(err, this.what, text, object, this.isSecret);
  }

  /** The origin's transport now, or an OriginRefused (W01). */
  private transport(): KubeTransport {
    const connection = this.target.connect(this.target.origin);
    if (isOriginRefusal(connection)) throw new OriginRefused(connection.refused);
    return connection.transport;
  }

  /** GET of the object as the server has it now (managedFields included), on the origin's cluster. */
  async read(signal: AbortSignal): Promise<KubeObject> {
    return this.transport().getJson<KubeObject>(this.path, {}, signal, { exactIntegers: true });
  }

  /**
   * The watch delivers objects through doubles, so an integer beyond 2^53 in the watched copy is
   * rounded: then the edit stands on the object read from the server, integers exact (W11), before
   * anything is rendered (the same object: the same uid).
   */
  async standOnExactCopy(signal: AbortSignal): Promise<void> {
    if (!hasInexactInteger(this.baseObject)) return;
    const exact = withoutManagedFields(await this.read(signal));
    if (exact.metadata.uid !== this.baseObject.metadata.uid) return;
    this.baseObject = exact;
    if (!this.liveObject || !newer(this.liveObject, exact)) this.liveObject = exact;
  }

  /** One write through the origin's connection, reported to `onWrite` whatever its outcome. */
  async write<T extends KubeObject>(verb: EditWrite['verb'], request: WriteRequest, signal: AbortSignal, summary = ''): Promise<T> {
    const dryRun = request.query?.dryRun === 'All';
    let transport: KubeTransport | undefined;
    try {
      transport = this.transport();
    } catch (err) {
      this.options.onWrite?.({ verb, target: this.target, dryRun, result: err instanceof Error ? err.message : String(err) });
      throw err;
    }
    const handle = this.options.journal?.begin({ verb, target: this.target, dryRun, summary });
    if (!transport.write) {
      const err = new Error(`no connection to the cluster of ${this.what}`);
      handle?.failed(err, err.message);
      this.options.onWrite?.({ verb, target: this.target, dryRun, result: err.message });
      throw err;
    }
    try {
      // The answer becomes the buffer's base: its integers exact (W11).
      const answer = await transport.write<T>({ ...request, exactIntegers: true }, signal);
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
