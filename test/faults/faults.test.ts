import { allScenarios } from './scenarios';
import { Rig, until } from './rig';
import { BEHAVIOUR_INFORMER_DEFAULTS, SERVER_BEHAVIOURS, type ServerBehaviour } from './scenario';

const behaviours = Object.keys(SERVER_BEHAVIOURS) as ServerBehaviour[];

for (const behaviour of behaviours) {
  describe(`fault matrix (docs/fault-matrix.md) on a ${behaviour} server, our informer over the real client stack`, function () {
    for (const scenario of allScenarios) {
      if (scenario.servers && !scenario.servers.includes(behaviour)) continue;
      it(scenario.title, async () => {
        const server = { ...SERVER_BEHAVIOURS[behaviour], ...scenario.setup?.server };
        const informer = { ...BEHAVIOUR_INFORMER_DEFAULTS[behaviour], ...scenario.setup?.informer };
        const rig = await Rig.start({ ...scenario.setup, server, informer, noStart: scenario.setup?.noStart });
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
}
