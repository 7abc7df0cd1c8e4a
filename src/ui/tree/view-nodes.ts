import { groupVersion, type KubeObject, type ResourceType } from '../../informer';
import type { ObjectNode, TreeNode } from './tree-node';
import type { Tone } from './tone';
import type { WorkspaceNode } from './workspace-rows';

/**
 * The rows of the Resources view besides the watches' own (tree-node.ts): a context when several
 * are watched, the "All resources" catalog with its API groups and types, the objects related to
 * a row (what it owns, a Service's Pods), and notes in place of children. Like the watch rows,
 * instances are stable per id while they stand for the same thing, so refreshes reach VS Code.
 */
export type ViewNode = TreeNode | ContextNode | CatalogNode | EventsNode | ApiGroupNode | ApiTypeNode | RelatedNode | NoteNode | WorkspaceNode;

/** One watched context, a top row when several are watched (issue 23, part 6). */
export class ContextNode {
  readonly kind = 'context';
  readonly parent = undefined;
  constructor(
    readonly id: string,
    /** The context's name ('' while unknown). */
    readonly context: string,
    /** The configured spec ("" = the current-context). */
    readonly spec: string,
  ) {}
}

/** "All resources": every type the context's server offers, by API group (issue 23, part 3). */
export class CatalogNode {
  readonly kind = 'catalog';
  constructor(
    readonly id: string,
    readonly context: string,
    readonly spec: string,
    readonly parent: ContextNode | undefined,
  ) {}
}

/** "Events": the context's remembering events feed (issue 33); a click opens the Events view. */
export class EventsNode {
  readonly kind = 'events';
  constructor(
    readonly id: string,
    readonly context: string,
    readonly spec: string,
    readonly parent: ContextNode | undefined,
  ) {}
}

/** One API group in the catalog ('' = the core group). */
export class ApiGroupNode {
  readonly kind = 'apiGroup';
  constructor(
    readonly id: string,
    readonly group: string,
    readonly parent: CatalogNode,
  ) {}
}

/** One type in the catalog: a click adds its watch; watched, it offers to stop. */
export class ApiTypeNode {
  readonly kind = 'apiType';
  constructor(
    readonly id: string,
    public type: ResourceType,
    readonly parent: ApiGroupNode,
  ) {}

  get spec(): string {
    return this.parent.parent.spec;
  }
}

/**
 * An object related to a row (issue 23, part 5): what it owns, or a Service's Pod. With `entryId`
 * it is an object of a configured watch, and offers what object rows offer; without, it was
 * found by an ad-hoc watch, and offers Describe.
 */
export class RelatedNode {
  readonly kind = 'related';
  constructor(
    readonly id: string,
    readonly parent: ObjectNode | RelatedNode,
    public object: KubeObject,
    readonly objectKind: string,
    public entryId: string | undefined,
    public type: ResourceType | string,
    readonly spec: string,
    readonly context: string,
  ) {}

  get namespace(): string {
    return this.object.metadata.namespace ?? '';
  }

  get name(): string {
    return this.object.metadata.name ?? '';
  }

  /** What Describe needs: the object by type, namespace and name on its context. */
  get describeTarget(): { spec: string; type: ResourceType | string; kind: string; apiVersion: string; namespace: string; name: string } {
    const apiVersion = this.object.apiVersion ?? (typeof this.type === 'string' ? 'v1' : groupVersion(this.type));
    return { spec: this.spec, type: this.type, kind: this.objectKind, apiVersion, namespace: this.namespace, name: this.name };
  }
}

/** A line of text in place of children: "listing replicasets…", "no pods", "nothing matches". */
export class NoteNode {
  readonly kind = 'note';
  constructor(
    readonly id: string,
    readonly parent: ViewNode,
    public text: string,
    public tone: Tone,
  ) {}
}
