import * as vscode from 'vscode';
import type { EntryHandler } from '../../manager';
import { actionToken, type RowActions } from '../../ui/actions';
import { refOfUri, targetOf, type ActionSource } from './action-targets';

/** Context key: the tokens of the actions the active editor's object offers (`@scale @restart`), '' for none. */
export const ACTIVE_OBJECT_ACTIONS = 'kubeWatch.activeObjectActions';
/** Context key: the active editor shows a watched object (its title bar offers Actions…, Copy Name, Copy kubectl Command). */
export const ACTIVE_OBJECT = 'kubeWatch.activeObject';

/**
 * Keeps `kubeWatch.activeObjectActions` in line with the object of the active editor's YAML
 * document, so its title bar offers what its row offers: on a change of editor, of the access
 * answers, and of that object (a cordoned node offers Uncordon).
 */
export function registerEditorActionContext(manager: ActionSource & { addHandler(handler: EntryHandler): { dispose(): void } }, rows: RowActions): vscode.Disposable {
  let shown: string | undefined;
  let objectShown: boolean | undefined;
  const update = () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const ref = uri && refOfUri(uri);
    const target = ref && targetOf(manager, ref);
    const tokens = ref && target ? rows.offered(ref.entryId, target).map((a) => actionToken(a.id)).join(' ') : '';
    if (Boolean(target) !== objectShown) {
      objectShown = Boolean(target);
      void vscode.commands.executeCommand('setContext', ACTIVE_OBJECT, objectShown);
    }
    if (tokens === shown) return;
    shown = tokens;
    void vscode.commands.executeCommand('setContext', ACTIVE_OBJECT_ACTIONS, tokens);
  };
  const activeName = () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? refOfUri(uri)?.name : undefined;
  };
  const onObject = (_id: string, obj: { metadata: { name?: string } }) => {
    if (obj.metadata.name !== undefined && obj.metadata.name === activeName()) update();
  };
  update();
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor(update),
    rows.onDidChange(update),
    manager.addHandler({ onAdd: onObject, onUpdate: (id, _old, obj) => onObject(id, obj), onDelete: onObject }),
  );
}
