/**
 * Who may do what on the local API server, in RBAC's terms, and the answers kube-apiserver 1.34
 * gives about it (transcript actions-1.34.md): `SelfSubjectAccessReview` and
 * `SelfSubjectRulesReview` (POST to authorization.k8s.io/v1), and the 403 of a request the
 * policy refuses, worded as RBAC words it.
 *
 * By default everything is allowed (the user is in `system:masters`, as the single token of the
 * tests always was). `setRules` makes the user an ordinary one with those rules; `readOnly()`
 * allows get, list and watch of everything and nothing else. Every authenticated user may
 * always create access reviews (the `system:basic-user` role).
 */
import type * as http from 'node:http';
import type { Route } from './router';
import type { RequestRecord } from './types';
import { isTrue } from './router';
import { failure, type StatusJson } from './status';
import { sendJson } from './responses';
import type { WriteCall } from './writes';

/** One rule: the verbs on the resources of the groups (`*` matches anything), in some namespaces or everywhere. */
export interface PolicyRule {
  verbs: string[];
  apiGroups: string[];
  /** `deployments`, `deployments/scale`, `pods/eviction`, `*`. */
  resources: string[];
  /** Limits the rule to these namespaces (a RoleBinding); absent: everywhere (a ClusterRoleBinding). */
  namespaces?: string[];
  resourceNames?: string[];
  /** The binding named in the reason of an allowed review; default `kube-watch-test`. */
  binding?: string;
}

/** What a request or a review asks about. */
export interface AccessAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** What every authenticated user may do (system:basic-user and friends). */
const BASIC: PolicyRule[] = [
  { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
];

const AUTHORIZATION = 'authorization.k8s.io';

export class AccessPolicy {
  /** The user the bearer token stands for, as 403 messages quote it. */
  user = 'kube-watch-test';
  /** undefined: everything is allowed (system:masters). */
  private rules: PolicyRule[] | undefined;

  /** Everything allowed again (the default). */
  allowAll(): void {
    this.rules = undefined;
  }

  /** The user may do what `rules` allow, and nothing else. */
  setRules(rules: PolicyRule[]): void {
    this.rules = rules.map((r) => ({ ...r }));
  }

  /** get, list and watch of everything; no write. */
  readOnly(): void {
    this.setRules([{ verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'], binding: 'read-only' }]);
  }

  /** Whether the user may do it, and the reason a review gives (RBAC names the binding of an allowed request). */
  decide(a: AccessAttributes): { allowed: boolean; reason?: string } {
    if (this.rules === undefined) return { allowed: true };
    const basic = BASIC.find((r) => matches(r, a));
    if (basic) return { allowed: true, reason: `RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"` };
    const rule = this.rules.find((r) => matches(r, a));
    if (!rule) return { allowed: false };
    const binding = rule.binding ?? 'kube-watch-test';
    return {
      allowed: true,
      reason: rule.namespaces
        ? `RBAC: allowed by RoleBinding "${binding}/${a.namespace ?? ''}" of Role "${binding}" to User "${this.user}"`
        : `RBAC: allowed by ClusterRoleBinding "${binding}" of ClusterRole "${binding}" to User "${this.user}"`,
    };
  }

  /** The rules that apply in `namespace` ('' for cluster-wide ones), as a SelfSubjectRulesReview lists them. */
  rulesIn(namespace: string): { verbs: string[]; apiGroups: string[]; resources: string[]; resourceNames?: string[] }[] {
    const own = this.rules ?? [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
    return [...BASIC, ...own.filter((r) => !r.namespaces || r.namespaces.includes(namespace))].map((r) => ({
      verbs: [...r.verbs],
      apiGroups: [...r.apiGroups],
      resources: [...r.resources],
      ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}),
    }));
  }

  /**
   * Answers a request the policy refuses with RBAC's 403 and returns true; returns false when it
   * may go on. For every resource request, read or write, before anything else looks at it.
   */
  refuse(req: http.IncomingMessage, res: http.ServerResponse, route: Route, record: RequestRecord): boolean {
    if (this.rules === undefined || route.kind !== 'resource') return false;
    const attributes: AccessAttributes = {
      verb: rbacVerb(req.method ?? 'GET', route.name !== undefined, isTrue(record.query.watch)),
      group: route.group,
      resource: route.resource,
      subresource: route.subresource,
      namespace: route.namespace,
      name: route.name,
    };
    if (this.decide(attributes).allowed) return false;
    sendJson(req, res, record.query, 403, this.forbidden(attributes));
    return true;
  }

  /** RBAC's 403: `pods "web-1" is forbidden: User "reader" cannot delete resource "pods" in API group "" in the namespace "shop"`. */
  forbidden(a: AccessAttributes): StatusJson {
    const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
    const subject = a.name ? `${qualified} "${a.name}"` : qualified;
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
    const details: Record<string, string> = {};
    if (a.name) details.name = a.name;
    if (a.group) details.group = a.group;
    details.kind = a.resource;
    return failure(403, 'Forbidden', `${subject} is forbidden: User "${this.user}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`, details);
  }
}

/** RBAC's verb for a request: get/list/watch, create, update, patch, delete/deletecollection. */
export function rbacVerb(method: string, named: boolean, watch: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

function matches(rule: PolicyRule, a: AccessAttributes): boolean {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  if (!rule.verbs.some((v) => v === '*' || v === a.verb)) return false;
  if (!rule.apiGroups.some((g) => g === '*' || g === a.group)) return false;
  if (!rule.resources.some((r) => r === '*' || r === resource)) return false;
  if (rule.namespaces && !(a.namespace !== undefined && rule.namespaces.includes(a.namespace))) return false;
  if (rule.resourceNames && rule.resourceNames.length > 0 && !(a.name !== undefined && rule.resourceNames.includes(a.name))) return false;
  return true;
}

/**
 * The write handler for `selfsubjectaccessreviews` and `selfsubjectrulesreviews`: answers from
 * the policy, with the spec echoed back as the real server does (201 Created).
 */
export function accessReviewWrites(policy: AccessPolicy): (call: WriteCall) => boolean {
  return (call) => {
    const { route } = call;
    if (route.group !== AUTHORIZATION || call.method !== 'POST' || route.name !== undefined || route.namespace !== undefined) return false;
    if (route.resource !== 'selfsubjectaccessreviews' && route.resource !== 'selfsubjectrulesreviews') return false;
    let input: { spec?: Record<string, unknown> };
    try {
      input = JSON.parse(call.body.toString('utf8')) as { spec?: Record<string, unknown> };
    } catch {
      call.reply(400, failure(400, 'BadRequest', 'the body of the request was in an unknown format'));
      return true;
    }
    const spec = input.spec ?? {};
    if (route.resource === 'selfsubjectrulesreviews') {
      const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
      if (!namespace) {
        call.reply(400, failure(400, 'BadRequest', 'no namespace on request'));
        return true;
      }
      const resourceRules = policy.rulesIn(namespace);
      call.reply(201, { kind: 'SelfSubjectRulesReview', apiVersion: `${AUTHORIZATION}/v1`, metadata: {}, spec: {}, status: { resourceRules, nonResourceRules: [], incomplete: false } });
      return true;
    }
    const attrs = spec.resourceAttributes as Record<string, string> | undefined;
    if (!attrs || typeof attrs !== 'object') {
      const message = 'Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified';
      call.reply(422, failure(422, 'Invalid', `.authorization.k8s.io "" is invalid: spec.resourceAttributes: ${message}`, { group: AUTHORIZATION, causes: [{ reason: 'FieldValueInvalid', message, field: 'spec.resourceAttributes' }] }));
      return true;
    }
    const decision = policy.decide({
      verb: attrs.verb ?? '',
      group: attrs.group ?? '',
      resource: attrs.resource ?? '',
      subresource: attrs.subresource || undefined,
      namespace: attrs.namespace || undefined,
      name: attrs.name || undefined,
    });
    call.reply(201, {
      kind: 'SelfSubjectAccessReview',
      apiVersion: `${AUTHORIZATION}/v1`,
      metadata: {},
      spec: { resourceAttributes: attrs },
      status: decision.reason ? { allowed: decision.allowed, reason: decision.reason } : { allowed: decision.allowed },
    });
    return true;
  };
}
