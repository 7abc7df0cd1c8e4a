import { LineCounter, parseAllDocuments, isMap, isSeq, type Document, type Node as YamlNode } from 'yaml';

/**
 * The Kubernetes documents of a workspace file: a YAML stream (`---` separated), a JSON object,
 * or a `List` whose items are objects. Each document keeps its own lines, so a lens sits above it
 * and a problem lands on its lines. A file none of whose documents is a Kubernetes object (an
 * `apiVersion`, a `kind` and a `metadata.name`) is not a manifest: nothing is shown for it.
 * Parsing never touches the cluster.
 */

/** Zero-based lines, end inclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/** One Kubernetes object of a file, as the user wrote it. */
export interface ManifestDocument {
  /** Its place in the file: `0`, `1`, … (a List's items: `2.0`, `2.1`). */
  readonly key: string;
  readonly lines: LineRange;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** As written; undefined when the document leaves it to the context. */
  readonly namespace?: string;
  /** The object as written (plain JSON values). */
  readonly object: Record<string, unknown>;
  /** Its text alone (a List item's: its JSON), to place a field's problem; `offset`: its first line in the file. */
  readonly text: string;
  /** The file line `text` starts on; problems found in `text` are moved by it. */
  readonly textLine: number;
}

/** A line about the file, in a user's words (invalid YAML, too many documents). */
export interface FileProblem {
  readonly message: string;
  readonly lines: LineRange;
}

export type ManifestFile =
  | { readonly kind: 'not-kubernetes' }
  | { readonly kind: 'manifests'; readonly documents: readonly ManifestDocument[]; readonly problems: readonly FileProblem[] };

/** A file with more documents than this is not followed (one line says so): the editor stays quick. */
export const MAX_DOCUMENTS = 1000;

function plain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when `v` names an object: apiVersion, kind and metadata.name, all strings. */
function isKubeObject(v: unknown): v is Record<string, unknown> & { metadata: Record<string, unknown> } {
  return plain(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string' && plain(v.metadata) && typeof v.metadata.name === 'string' && v.metadata.name !== '';
}

/** Looks like a Kubernetes document, though it does not parse (so its error is worth a line). */
const LOOKS_KUBERNETES = /^\s*(apiVersion|kind)\s*:/m;

/** The Kubernetes documents of `text` (see the file comment). */
export function parseManifests(text: string): ManifestFile {
  if (!LOOKS_KUBERNETES.test(text) && !/"apiVersion"\s*:/.test(text)) return { kind: 'not-kubernetes' };
  // Counted before parsing: a huge file costs one scan, not a parse.
  const separators = text.match(/^---/gm)?.length ?? 0;
  if (separators >= MAX_DOCUMENTS) return tooMany(separators + (/^---/.test(text) ? 0 : 1));
  const lines = new LineCounter();
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false }) as Document.Parsed[];
  } catch {
    return { kind: 'not-kubernetes' };
  }
  if (!Array.isArray(docs)) return { kind: 'not-kubernetes' };
  const lineOf = (offset: number) => Math.max(0, lines.linePos(Math.min(offset, text.length)).line - 1);
  const rangeOf = (range: readonly number[] | undefined | null, fallback: LineRange): LineRange => {
    if (!range) return fallback;
    const end = range[1] > range[0] ? range[1] - 1 : range[0];
    return { start: lineOf(range[0]), end: Math.max(lineOf(range[0]), lineOf(end)) };
  };
  const documents: ManifestDocument[] = [];
  const problems: FileProblem[] = [];
  let kubernetes = false;
  const total = docs.length;
  if (total > MAX_DOCUMENTS) return tooMany(total);
  docs.forEach((doc, i) => {
    const docLines = rangeOf(doc.contents?.range ?? doc.range, { start: 0, end: 0 });
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const at = e.linePos?.[0] ? e.linePos[0].line - 1 : docLines.start;
      problems.push({ message: `This document is not valid YAML (line ${at + 1}): ${firstLine(e.message)}. Nothing is compared for it until it parses.`, lines: { start: at, end: at } });
      if (LOOKS_KUBERNETES.test(text.slice(doc.range[0], doc.range[1]))) kubernetes = true;
      return;
    }
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (isKubeObject(value) && /List$/.test(String(value.kind)) && Array.isArray(value.items)) {
      kubernetes = true;
      const items = isMap(doc.contents) ? doc.contents.get('items', true) : undefined;
      value.items.forEach((item, j) => {
        const node = isSeq(items) ? (items.items[j] as YamlNode | undefined) : undefined;
        const itemLines = rangeOf(node?.range, docLines);
        // An item's problems are placed on its first line (its own text is its JSON).
        if (isKubeObject(item)) documents.push(documentOf(`${i}.${j}`, itemLines, item, JSON.stringify(item), itemLines.start));
      });
      return;
    }
    if (!isKubeObject(value)) {
      if (plain(value) && (typeof value.apiVersion === 'string' || typeof value.kind === 'string')) {
        kubernetes = true;
        problems.push({ message: `This document has no ${typeof value.kind !== 'string' ? 'kind' : typeof value.apiVersion !== 'string' ? 'apiVersion' : 'metadata.name'}: it is not compared with the cluster.`, lines: docLines });
      }
      return;
    }
    kubernetes = true;
    documents.push(documentOf(String(i), docLines, value, text.slice(doc.range[0], doc.range[1]), lineOf(doc.range[0])));
  });
  if (!kubernetes) return { kind: 'not-kubernetes' };
  return { kind: 'manifests', documents, problems };
}

function documentOf(key: string, lines: LineRange, object: Record<string, unknown> & { metadata: Record<string, unknown> }, text: string, textLine: number): ManifestDocument {
  const ns = object.metadata.namespace;
  return {
    key,
    lines,
    apiVersion: object.apiVersion as string,
    kind: object.kind as string,
    name: object.metadata.name as string,
    ...(typeof ns === 'string' && ns !== '' ? { namespace: ns } : {}),
    object,
    text,
    textLine,
  };
}

function tooMany(total: number): ManifestFile {
  return { kind: 'manifests', documents: [], problems: [{ message: `${total.toLocaleString('en-US')} documents: more than Kube Watch compares in one file (${MAX_DOCUMENTS.toLocaleString('en-US')}); split the file to see their live state.`, lines: { start: 0, end: 0 } }] };
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '').trim();
}

/** "Deployment shop/web" */
export function documentLabel(doc: Pick<ManifestDocument, 'kind' | 'name'>, namespace: string | undefined): string {
  return `${doc.kind} ${namespace ? `${namespace}/` : ''}${doc.name}`;
}
