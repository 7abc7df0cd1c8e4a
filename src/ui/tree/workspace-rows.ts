import type { Disposable } from '../../base';
import type { DocumentState, DocumentStateKind } from '../../manifests/manifest-state';
import { lensLine } from '../manifests/lens-text';
import type { NodePresentation } from './node-presentation';

/**
 * The Workspace section of the Resources view: the manifests found in the workspace, by folder,
 * each file with its documents' states (the lens's words), and counts of drifted and missing in
 * the section's description. VS Code-free; node instances stable per id, as the view's others.
 */

/** One manifest file as the engine knows it. */
export interface WorkspaceManifest {
  readonly uri: string;
  /** The folder as the user reads it, relative to the workspace (`shop`, `.` for the top). */
  readonly folder: string;
  readonly file: string;
  readonly documents: readonly { readonly label: string; readonly state: DocumentState }[];
  readonly problems: readonly string[];
}

export interface WorkspaceSource {
  manifests(): readonly WorkspaceManifest[];
  onDidChange(listener: () => void): Disposable;
}

export type WorkspaceLevel = 'root' | 'folder' | 'file' | 'document';

export class WorkspaceNode {
  readonly kind = 'workspace';
  constructor(
    readonly id: string,
    readonly level: WorkspaceLevel,
    readonly parent: WorkspaceNode | undefined,
    /** The folder, the file's uri, or the document's index in its file. */
    readonly key: string,
  ) {}
}

const ICONS: Partial<Record<DocumentStateKind, { id: string; color?: string }>> = {
  'in-sync': { id: 'pass', color: 'testing.iconPassed' },
  drifted: { id: 'diff', color: 'editorWarning.foreground' },
  missing: { id: 'cloud-upload', color: 'editorInfo.foreground' },
  deleted: { id: 'trash', color: 'editorWarning.foreground' },
  forbidden: { id: 'lock' },
  unreachable: { id: 'debug-disconnect', color: 'disabledForeground' },
  invalid: { id: 'error', color: 'editorError.foreground' },
  checking: { id: 'loading~spin' },
};

/** "2 drifted · 1 missing" of a set of states, or "in sync" when none drifted, is missing or was deleted. */
export function stateCounts(states: readonly DocumentState[]): string {
  const n = (k: DocumentStateKind) => states.filter((s) => s.kind === k).length;
  const parts = [n('drifted') && `${n('drifted')} drifted`, n('missing') + n('deleted') && `${n('missing') + n('deleted')} missing`, n('invalid') && `${n('invalid')} refused`, n('unreachable') && `${n('unreachable')} not live`].filter(Boolean);
  if (parts.length > 0) return parts.join(' · ');
  return states.length > 0 && states.every((s) => s.kind === 'in-sync') ? 'in sync' : n('checking') > 0 ? 'checking…' : '';
}

export class WorkspaceRows {
  private readonly nodes = new Map<string, WorkspaceNode>();
  readonly rootNode = new WorkspaceNode('workspace:', 'root', undefined, '');

  constructor(private readonly source: WorkspaceSource) {}

  onDidChange(listener: () => void): Disposable {
    return this.source.onDidChange(listener);
  }

  /** The section's row, while the workspace has manifests. */
  root(): WorkspaceNode | undefined {
    return this.source.manifests().length > 0 ? this.rootNode : undefined;
  }

  children(node: WorkspaceNode): WorkspaceNode[] {
    const all = this.source.manifests();
    switch (node.level) {
      case 'root':
        return [...new Set(all.map((m) => m.folder))].sort().map((f) => this.stable(`workspace:${f}`, 'folder', node, f));
      case 'folder':
        return all.filter((m) => m.folder === node.key).sort((a, b) => a.file.localeCompare(b.file)).map((m) => this.stable(`workspace:${m.uri}`, 'file', node, m.uri));
      case 'file':
        return (this.file(node.key)?.documents ?? []).map((_, i) => this.stable(`workspace:${node.key}#${i}`, 'document', node, String(i)));
      case 'document':
        return [];
    }
  }

  present(node: WorkspaceNode, now: number): NodePresentation {
    const all = this.source.manifests();
    switch (node.level) {
      case 'root': {
        const states = all.flatMap((m) => m.documents.map((d) => d.state));
        const counts = stateCounts(states);
        return { label: 'Workspace', description: `${all.length} ${all.length === 1 ? 'file' : 'files'}${counts ? ` · ${counts}` : ''}`, icon: { id: 'files' }, collapsible: 'collapsed', contextValue: 'workspace' };
      }
      case 'folder': {
        const states = all.filter((m) => m.folder === node.key).flatMap((m) => m.documents.map((d) => d.state));
        return { label: node.key, description: stateCounts(states), icon: { id: 'folder' }, collapsible: 'collapsed', contextValue: 'workspace.folder' };
      }
      case 'file': {
        const m = this.file(node.key);
        const description = m?.problems[0] ?? stateCounts(m?.documents.map((d) => d.state) ?? []);
        return { label: m?.file ?? node.key, description, icon: { id: 'file-code' }, collapsible: (m?.documents.length ?? 0) > 0 ? 'collapsed' : 'none', contextValue: 'workspace.file' };
      }
      case 'document': {
        const d = this.file(node.parent?.key ?? '')?.documents[Number(node.key)];
        if (!d) return { label: '', collapsible: 'none', contextValue: 'workspace.document' };
        return { label: d.label, description: lensLine(d.state, now).title, icon: ICONS[d.state.kind] ?? { id: 'circle-outline' }, collapsible: 'none', contextValue: `workspace.document.${d.state.kind}` };
      }
    }
  }

  /** The file a file row or a document row is about. */
  uriOf(node: WorkspaceNode): string | undefined {
    return node.level === 'file' ? node.key : node.level === 'document' ? node.parent?.key : undefined;
  }

  private file(uri: string): WorkspaceManifest | undefined {
    return this.source.manifests().find((m) => m.uri === uri);
  }

  private stable(id: string, level: WorkspaceLevel, parent: WorkspaceNode, key: string): WorkspaceNode {
    let n = this.nodes.get(id);
    if (!n || n.parent !== parent) this.nodes.set(id, (n = new WorkspaceNode(id, level, parent, key)));
    return n;
  }
}
