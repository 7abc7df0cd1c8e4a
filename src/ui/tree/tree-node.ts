import type { KubeObject } from '../../informer';
import { ObjectContainer } from './object-container';

/**
 * The nodes of the Watched Resources tree. Node objects are stable: the model hands out the
 * same instance for an id for as long as the thing it shows exists, because VS Code matches
 * refreshed elements by identity. Ids never depend on uids, so an object deleted and re-created
 * under its name keeps its row (and selection). Fields not marked readonly belong to the model.
 */
export type TreeNode = ResourceNode | NamespaceNode | ObjectNode | MoreNode | MessageNode;

/** A node whose children are object nodes. */
export type ObjectParent = ResourceNode | NamespaceNode;

/** The object rows under one parent. */
export type ObjectRows = ObjectContainer<ObjectNode, ObjectParent, MoreNode>;

/**
 * How a resource node lays out what is under it:
 * - `objects`: the objects themselves (one namespace watched, or a cluster-scoped type);
 * - `namespaces`: one namespace node per namespace that has objects (all namespaces watched);
 * - `watches`: one namespace node per watch (several namespaces configured, one entry each).
 */
export type ResourceLayout = 'objects' | 'namespaces' | 'watches';

/** A watched resource type of one context: one or more watch entries (one per namespace). */
export class ResourceNode {
  readonly kind = 'resource';
  readonly parent = undefined;
  /** Entry ids, sorted by namespace; exactly one unless the layout is `watches`. */
  entryIds: readonly string[] = [];
  layout: ResourceLayout = 'objects';
  /** The objects, in the `objects` layout (empty and unused in the others). */
  container: ObjectRows;
  /** Namespace nodes by namespace, in the `namespaces` and `watches` layouts. */
  readonly namespaces = new Map<string, NamespaceNode>();
  /** Namespace nodes sorted by namespace; undefined when a namespace came or went since. */
  sortedNamespaces: NamespaceNode[] | undefined;
  /** Pages of namespace nodes shown (a cluster may have thousands of namespaces). */
  namespacePages = 1;
  readonly moreNamespaces: MoreNode;
  readonly message: MessageNode;
  attached = true;
  /** Clock time this node was last named in a refresh (throttles resourceVersion-only refreshes). */
  presentedAt = Number.NEGATIVE_INFINITY;
  label = '';
  /** While its watch's first list is in progress: rows of what it received so far (list-preview-rows.ts). */
  previewRows: ObjectRows | undefined;

  constructor(
    readonly id: string,
    /** The context's name as the entries report it ('' when unknown). */
    readonly context: string,
    /** The resource as configured (kubectl spelling). */
    readonly resource: string,
  ) {
    this.moreNamespaces = new MoreNode(`${id}#more-namespaces`, this);
    this.message = new MessageNode(`${id}#message`, this);
    this.container = new ObjectContainer(this, new MoreNode(`${id}#more`, this));
  }

  /** The entry this node shows, when it shows exactly one (what "Restart Watch" restarts). */
  get entryId(): string | undefined {
    return this.entryIds.length === 1 ? this.entryIds[0] : undefined;
  }
}

/**
 * A namespace under a resource node: either a group of one entry's objects (all namespaces
 * watched; exists while it has objects), or, with `watch` set, one entry of its own (several
 * namespaces configured; exists as long as the entry, and shows that watch's state).
 */
export class NamespaceNode {
  readonly kind = 'namespace';
  readonly container: ObjectRows;
  readonly message: MessageNode;
  attached = true;
  presentedAt = Number.NEGATIVE_INFINITY;
  /**
   * A namespace of a first list in progress: how many objects it has so far (drawn as incomplete);
   * undefined otherwise. Cleared when the list completes or fails (list-preview-rows.ts).
   */
  previewCount: number | undefined;
  /** While its watch's first list is in progress: rows of what it received so far. */
  previewRows: ObjectRows | undefined;

  constructor(
    readonly id: string,
    readonly parent: ResourceNode,
    readonly namespace: string,
    /** The entry whose objects are shown here. */
    readonly entryId: string,
    /** True when this namespace is a watch of its own. */
    readonly watch: boolean,
  ) {
    this.container = new ObjectContainer(this, new MoreNode(`${id}#more`, this));
    this.message = new MessageNode(`${id}#message`, this);
  }
}

/**
 * One cached object. `object` is always the newest state the informer reported. There is one per
 * cached object (100,000 in a big cluster, PERF B10), so it keeps no more than it must: its id is
 * made when asked for.
 */
export class ObjectNode {
  readonly kind = 'object';
  attached = true;
  /** The status key last handed to the view; undefined until presented (then updates compare against it). */
  shownKey: string | undefined;

  /** `entryId/namespace/name`: uid-insensitive. */
  get id(): string {
    return `${this.entryId}/${this.namespace}/${this.name}`;
  }

  constructor(
    readonly parent: ObjectParent,
    readonly entryId: string,
    /** '' for cluster-scoped objects. */
    readonly namespace: string,
    readonly name: string,
    public object: KubeObject,
  ) {}
}

/** "N more…": the rest of a long child list; `kubeWatch.loadMore` shows the next page. */
export class MoreNode {
  readonly kind = 'more';
  /** How many children are not shown; set each time the parent's children are computed. */
  remaining = 0;
  constructor(
    readonly id: string,
    readonly parent: ObjectParent,
  ) {}
}

/** A line of text in place of children: an error, "listing…", "no objects". */
export class MessageNode {
  readonly kind = 'message';
  constructor(
    readonly id: string,
    readonly parent: ObjectParent,
  ) {}
}

/** The watch entries behind a node: all of a resource node's, the one of any node under it. */
export function entryIdsOf(node: TreeNode): string[] {
  switch (node.kind) {
    case 'resource':
      return [...node.entryIds];
    case 'namespace':
    case 'object':
      return [node.entryId];
    case 'more':
    case 'message':
      return entryIdsOf(node.parent);
  }
}

/** A node is attached while its object, namespace and resource nodes are. */
export function isAttached(node: TreeNode): boolean {
  switch (node.kind) {
    case 'resource':
      return node.attached;
    case 'namespace':
      return node.attached && node.parent.attached;
    case 'object':
      return node.attached && isAttached(node.parent);
    case 'more':
    case 'message':
      return isAttached(node.parent);
  }
}
