import * as vscode from 'vscode';
import { LifecycleLogWriter, RecentLines, type LogSink, type WatchEventSource } from '../ui/log';

/** The registered log: the channel (for other adapters to show) and its disposal. */
export interface LogChannelRegistration extends vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  /** The last lines written, as `level message` (the channel itself cannot be read back). */
  recentLines(): string[];
  /** Writes lines of other origins (writes, say) to the log, kept with the recent lines. */
  readonly sink: LogSink;
}

/**
 * The "Kube Watch" log output channel: every lifecycle event of every watch, one line each,
 * with the levels of a LogOutputChannel (the user picks what to see with "Set Log Level").
 * Lines come from LifecycleLogWriter, which redacts anything that looks like a credential.
 * Registers `kubeWatch.showLog`. Disposing stops the writer, the command and the channel.
 */
export function registerLogChannel(manager: WatchEventSource): LogChannelRegistration {
  const channel = vscode.window.createOutputChannel('Kube Watch', { log: true });
  const recent = new RecentLines(channel);
  const writer = new LifecycleLogWriter(manager, recent);
  const command = vscode.commands.registerCommand('kubeWatch.showLog', () => channel.show(true));
  let disposed = false;
  return {
    channel,
    recentLines: () => recent.snapshot(),
    sink: recent,
    dispose() {
      if (disposed) return;
      disposed = true;
      writer.dispose();
      command.dispose();
      channel.dispose();
    },
  };
}
