/**
 * Label and field selectors with the grammar and semantics of k8s.io/apimachinery:
 * labels: `k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k>1`, `k<1`, comma = AND;
 * fields: `path=v`, `path==v`, `path!=v`, comma = AND; `\` escapes `,` `=` `!` `\` in values.
 * `!=` and `notin` match objects that lack the label. Parse errors throw SelectorError (-> HTTP 400).
 */
import type { KubeObjectJson } from './types';

export class SelectorError extends Error {}

/** A compiled selector: true when the object matches. */
export type Matcher = (obj: KubeObjectJson) => boolean;

export const matchAll: Matcher = () => true;

type LabelOp = 'exists' | '!exists' | '=' | '!=' | 'in' | 'notin' | '>' | '<';
interface Requirement {
  key: string;
  op: LabelOp;
  values: string[];
}

const KEY_RE = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE_RE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

function tokenize(input: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '!' && input[i + 1] === '=') {
      tokens.push('!=');
      i += 2;
    } else if (c === '=' && input[i + 1] === '=') {
      tokens.push('==');
      i += 2;
    } else if ('!=<>(),'.includes(c)) {
      tokens.push(c);
      i++;
    } else {
      let j = i;
      while (j < input.length && !/\s/.test(input[j]) && !'!=<>(),'.includes(input[j])) j++;
      tokens.push(`#${input.slice(i, j)}`); // '#' marks identifiers
      i = j;
    }
  }
  return tokens;
}

function parseLabelRequirements(input: string): Requirement[] {
  const toks = tokenize(input);
  let p = 0;
  const peek = (): string | undefined => toks[p];
  const show = (t: string | undefined) => (t === undefined ? 'end of string' : t.startsWith('#') ? t.slice(1) : t);
  const fail = (expected: string): never => {
    throw new SelectorError(`unable to parse requirement: found '${show(peek())}', expected: ${expected}`);
  };
  const ident = (what: string): string => {
    const t = peek();
    if (t === undefined || !t.startsWith('#')) return fail(what);
    p++;
    return t.slice(1);
  };
  const checkKey = (k: string) => {
    if (!KEY_RE.test(k) || k.split('/').pop()!.length > 63) throw new SelectorError(`unable to parse requirement: invalid label key "${k}"`);
  };
  const checkValue = (v: string) => {
    if (!VALUE_RE.test(v) || v.length > 63) throw new SelectorError(`unable to parse requirement: invalid label value: "${v}"`);
  };
  const reqs: Requirement[] = [];
  if (toks.length === 0) return reqs;
  for (;;) {
    if (peek() === '!') {
      p++;
      const key = ident('identifier after \'!\'');
      checkKey(key);
      reqs.push({ key, op: '!exists', values: [] });
    } else {
      const key = ident('identifier');
      checkKey(key);
      const t = peek();
      if (t === undefined || t === ',') {
        reqs.push({ key, op: 'exists', values: [] });
      } else if (t === '=' || t === '==' || t === '!=' || t === '>' || t === '<') {
        p++;
        const next = peek();
        const value = next !== undefined && next.startsWith('#') ? (p++, next.slice(1)) : '';
        if (t === '>' || t === '<') {
          if (!/^-?\d+$/.test(value)) throw new SelectorError(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`);
        } else {
          checkValue(value);
        }
        reqs.push({ key, op: t === '==' ? '=' : t, values: [value] });
      } else if (t === '#in' || t === '#notin') {
        p++;
        if (peek() !== '(') fail("'('");
        p++;
        const values: string[] = [];
        for (;;) {
          const v = peek();
          if (v !== undefined && v.startsWith('#')) {
            p++;
            checkValue(v.slice(1));
            values.push(v.slice(1));
          } else {
            values.push('');
          }
          if (peek() === ',') {
            p++;
            continue;
          }
          if (peek() === ')') {
            p++;
            break;
          }
          fail("',', ')' or identifier");
        }
        reqs.push({ key, op: t === '#in' ? 'in' : 'notin', values });
      } else {
        fail("'=', '!=', '==', 'in', notin'");
      }
    }
    if (peek() === undefined) return reqs;
    if (peek() !== ',') fail("',' or 'end of string'");
    p++;
  }
}

function matchRequirement(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case '=':
    case 'in':
      return has && r.values.includes(v);
    case '!=':
    case 'notin':
      return !has || !r.values.includes(v);
    case '>':
    case '<': {
      if (!has || !/^-?\d+$/.test(v)) return false;
      return r.op === '>' ? Number(v) > Number(r.values[0]) : Number(v) < Number(r.values[0]);
    }
  }
}

/** Compiles a labelSelector; empty or undefined selects everything. */
export function parseLabelSelector(input: string | undefined): Matcher {
  if (!input || input.trim() === '') return matchAll;
  const reqs = parseLabelRequirements(input);
  return (obj) => {
    const labels = obj.metadata.labels ?? {};
    return reqs.every((r) => matchRequirement(r, labels));
  };
}

/** Splits on unescaped `sep`, keeping escapes for the next step. */
function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i] + s[i + 1];
      i++;
    } else if (s[i] === sep) {
      out.push(cur);
      cur = '';
    } else {
      cur += s[i];
    }
  }
  out.push(cur);
  return out;
}

function unescapeFieldValue(v: string, term: string): string {
  let out = '';
  for (let i = 0; i < v.length; i++) {
    if (v[i] === '\\') {
      const n = v[i + 1];
      if (n === undefined || !'\\,=!'.includes(n)) throw new SelectorError(`invalid field selector: '${term}': invalid escape sequence`);
      out += n;
      i++;
    } else if ('=!,'.includes(v[i])) {
      throw new SelectorError(`invalid field selector: '${term}': unescaped '${v[i]}' in value`);
    } else {
      out += v[i];
    }
  }
  return out;
}

/** Reads a dotted field path of an object as a string ('' when absent), the way field labels do. */
function fieldValue(obj: KubeObjectJson, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'string' ? cur : String(cur);
}

/**
 * Compiles a fieldSelector. `allowed` lists the field paths the resource supports besides
 * metadata.name and metadata.namespace; any other field gives "field label not supported".
 */
export function parseFieldSelector(input: string | undefined, allowed: readonly string[] = []): Matcher {
  if (!input || input.trim() === '') return matchAll;
  const terms = splitUnescaped(input, ',').map((term) => {
    let op: '=' | '!=';
    let field: string;
    let value: string;
    const ne = term.indexOf('!=');
    const eq = term.indexOf('=');
    if (ne >= 0 && ne < eq) {
      op = '!=';
      field = term.slice(0, ne);
      value = term.slice(ne + 2);
    } else if (eq >= 0) {
      op = '=';
      field = term.slice(0, eq);
      value = term.slice(term[eq + 1] === '=' ? eq + 2 : eq + 1);
    } else {
      throw new SelectorError(`invalid selector: '${input}'; can't understand '${term}'`);
    }
    field = field.trim();
    if (field === '') throw new SelectorError(`invalid selector: '${input}'; can't understand '${term}'`);
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !allowed.includes(field)) {
      throw new SelectorError(`field label not supported: ${field}`);
    }
    return { field, op, value: unescapeFieldValue(value, term) };
  });
  return (obj) =>
    terms.every((t) => {
      const v = fieldValue(obj, t.field);
      return t.op === '=' ? v === t.value : v !== t.value;
    });
}
