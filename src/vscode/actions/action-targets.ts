import * as vscode from 'vscode';
import type { ActionDefinition, ActionTarget } from '../../actions';
import type { AccessReviewCache } from '../../cluster/access-review';
import type { KubeObject } from '../../informer';
import type { ObjectOrigin, OriginResolution, WatchEntry } from '../../manager';
import { targetOfRow } from '../../ui/actions';
import { parseObjectUri } from '../object-documents';

/** What the action commands read of the watch manager (a WatchManager is one). */
export interface ActionSource {
  entries(): WatchEntry[];
  entry(id: string): WatchEntry | undefined;
  accessReviewsOf(id: string): AccessReviewCache | undefined;
  userOf(id: string): string | undefined;
  /** Where an object read now from an entry comes from: an action's writes go there or nowhere. */
  originOf(id: string, object?: KubeObject): ObjectOrigin | undefined;
  resolveOrigin(origin: ObjectOrigin): OriginResolution;
}

/** An object the commands act on: the entry that watches it, and where it is. */
export interface ObjectRef {
  readonly entryId: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * The object a command argument names: a tree row (`{ kind: 'object', entryId, namespace, name }`),
 * a reference, or the URI of an object's YAML document (the editor title passes it), whose query
 * carries the reference as base64url JSON (`o=[entryId, namespace, name]`) whatever its scheme.
 */
export function objectRefOf(arg: unknown): ObjectRef | undefined {
  if (arg instanceof vscode.Uri) return refOfUri(arg);
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { entryId, namespace, name, kind } = arg as Partial<ObjectRef> & { kind?: unknown };
  // A related row (a Deployment's ReplicaSet, a Service's Pod) of a watched type is an object row too.
  if (kind !== undefined && kind !== 'object' && kind !== 'related') return undefined;
  if (typeof entryId !== 'string' || typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  return { entryId, namespace, name };
}

/** The reference in a Kube Watch object document's URI (the live YAML, or its editable copy), or undefined. */
export function refOfUri(uri: vscode.Uri): ObjectRef | undefined {
  return parseObjectUri(uri);
}

/** The target of a reference now (the live object), or undefined when its watch no longer has it. */
export function targetOf(source: ActionSource, ref: ObjectRef): ActionTarget | undefined {
  return targetOfRow(source, ref);
}

/**
 * The palette's way to name an object: a quick pick over the watched objects an action applies
 * to (all actions when none is given), grouped by kind.
 */
export async function pickObject(source: ActionSource, title: string, action?: ActionDefinition): Promise<ObjectRef | undefined> {
  const items: Array<vscode.QuickPickItem & { ref: ObjectRef }> = [];
  for (const entry of source.entries()) {
    if (!entry.informer || !entry.type) continue;
    for (const obj of entry.informer.list()) {
      const ref = { entryId: entry.id, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
      const target = targetOf(source, ref);
      if (!target || (action && !action.appliesTo(target))) continue;
      items.push({ label: ref.name, description: [entry.type.kind, ref.namespace].filter(Boolean).join(' · '), detail: entry.context || undefined, ref });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(action ? `No watched object offers ${action.title.replace(/…$/, '')}: watch its type first (Kube Watch: Choose Resources to Watch…).` : 'No object is watched yet.');
    return undefined;
  }
  items.sort((a, b) => (a.description ?? '').localeCompare(b.description ?? '') || a.label.localeCompare(b.label));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Object name', matchOnDescription: true });
  return picked?.ref;
}
