import { allScenarios } from './scenarios';
import { Rig, until } from './rig';

describe('fault matrix (docs/fault-matrix.md), our informer over the real client stack', function () {
  for (const scenario of allScenarios) {
    it(scenario.title, async () => {
      const rig = await Rig.start({ ...scenario.setup, noStart: scenario.setup?.noStart });
      try {
        await scenario.run(rig);
        await rig.informer.stop();
        rig.transport.dispose();
        // Everything that starts must stop: no socket of ours may stay open on the server.
        await until(() => rig.server.openSockets() === 0, 'every client socket to close');
      } finally {
        await rig.close();
      }
    });
  }
});
