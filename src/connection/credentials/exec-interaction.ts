/**
 * Where an exec credential plugin that may log in (`interactiveMode: IfAvailable` or `Always`:
 * a device-code flow, an SSO prompt) meets the user: a terminal of the editor's, as kubectl's is
 * the user's terminal. The engine knows only this port; `src/vscode/` fills it with a VS Code
 * terminal, and a process without one (the CLI) has none.
 *
 * Invariants: a session is opened for one plugin run and ended when that run ends, whatever its
 * outcome; what the session shows is the plugin's standard error (its prompts), never its standard
 * output (the credential); what the user types goes to the plugin's standard input.
 */
export interface ExecInteraction {
  /** Opens the place where the user answers one run of a plugin (shown once the plugin first writes). */
  open(request: ExecLoginRequest): ExecLoginSession;
}

/** Which plugin asks, for whom: names only, never a credential. */
export interface ExecLoginRequest {
  /** The command's last path segment: `kubelogin`. */
  plugin: string;
  /** The kubeconfig user and the cluster's server, so the user knows which login this is. */
  user: string;
  server: string;
}

export interface ExecLoginSession {
  /** Text the plugin wrote to its standard error (a prompt, a URL and a code). */
  show(text: string): void;
  /** Calls `listener` with each piece of text the user types; the subscription ends with the session. */
  onInput(listener: (text: string) => void): void;
  /** The run ended: `ok` when the plugin handed back a credential, else why not (in words). */
  end(outcome: { ok: true } | { ok: false; reason: string }): void;
}
