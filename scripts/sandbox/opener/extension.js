// Installed only into the sandbox's code-server profile (scripts/sandbox/main.ts): when the window
// opens, show the Kube Watch view container (which activates Kube Watch) and then its log in the
// Output panel, without taking the focus. Nothing else: every command it runs is Kube Watch's or
// the workbench's own.
const vscode = require('vscode');

exports.activate = async function activate() {
  try {
    await vscode.commands.executeCommand('workbench.view.extension.kubeWatch');
    // kubeWatch.showLog exists once Kube Watch has activated (opening its view activates it).
    for (let attempt = 0; attempt < 40; attempt++) {
      const commands = await vscode.commands.getCommands(true);
      if (commands.includes('kubeWatch.showLog')) {
        await vscode.commands.executeCommand('kubeWatch.showLog');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (err) {
    console.error(`sandbox-opener: ${err instanceof Error ? err.message : String(err)}`);
  }
};

exports.deactivate = function deactivate() {};
