import assert from 'node:assert/strict';
import { parseCliArgs, UsageError } from '../../src/cli/args';

describe('cli: arguments', () => {
  it('parses watch with every option, short and long', () => {
    assert.deepEqual(parseCliArgs(['watch', 'pods', '-n', 'ns1', '-l', 'app=web', '--field-selector', 'status.phase=Running', '--kubeconfig', '/k', '--context', 'c', '--timeout-seconds', '30', '--streaming-list', 'never']), {
      command: 'watch',
      resources: ['pods'],
      namespace: 'ns1',
      allNamespaces: false,
      labelSelector: 'app=web',
      fieldSelector: 'status.phase=Running',
      kubeconfig: '/k',
      context: 'c',
      timeoutSeconds: 30,
      streamingList: 'never',
    });
    const auto = parseCliArgs(['watch', 'pods']);
    assert.equal(auto.command === 'watch' && auto.streamingList, undefined, 'auto unless given');
    const all = parseCliArgs(['watch', 'deployments.apps', '-A', '--selector=tier=db']);
    assert.equal(all.command === 'watch' && all.allNamespaces && all.labelSelector, 'tier=db');
    const several = parseCliArgs(['watch', 'pods,configmaps,deployments.apps, Widget,pods']);
    assert.deepEqual(several.command === 'watch' && several.resources, ['pods', 'configmaps', 'deployments.apps', 'Widget'], 'in the order given, each once');
    assert.deepEqual(parseCliArgs(['--help']), { command: 'help' });
    assert.deepEqual(parseCliArgs(['watch', 'pods', '-h']), { command: 'help' });
    assert.deepEqual(parseCliArgs(['--version']), { command: 'version' });
  });

  it('rejects bad command lines with one-line messages', () => {
    const cases: [string[], RegExp][] = [
      [[], /missing command/],
      [['get', 'pods'], /unknown command "get"/],
      [['watch'], /missing RESOURCE/],
      [['watch', 'pods', 'extra'], /unexpected argument "extra": several types are separated by commas/],
      [['watch', 'pods,'], /an empty resource type in "pods,"/],
      [['watch', 'pods,,configmaps'], /an empty resource type/],
      [['watch', 'pods', '--bogus'], /unknown option --bogus/],
      [['watch', 'pods', '-n'], /needs a value/],
      [['watch', 'pods', '-n', 'a', '-A'], /cannot be used together/],
      [['watch', 'pods', '--timeout-seconds', '0'], /whole number of seconds/],
      [['watch', 'pods', '--timeout-seconds', '1.5'], /whole number of seconds/],
      [['watch', 'pods', '--namespace='], /non-empty value/],
      [['watch', 'pods', '--streaming-list', 'sometimes'], /--streaming-list needs one of auto, always, never/],
    ];
    for (const [argv, pattern] of cases) {
      assert.throws(
        () => parseCliArgs(argv),
        (err: unknown) => err instanceof UsageError && pattern.test(err.message) && !err.message.includes('\n'),
        argv.join(' '),
      );
    }
  });
});
