import { syntheticManifest } from './turn-cost.js';
import { withShippedIndex } from './turns.js';
const rt = process.env.RT!;
const { createCapabilityHost, PermissionHost } = await import(`${rt}/index.js`);
const manifest = await withShippedIndex(syntheticManifest(20000));
const MESSAGE = { $adapter: 'qq', $channel: { id: 'g1', type: 'group' }, $sender: { id: 'u1', role: 'user' } };
for (let r = 0; r < 4; r++) {
  const host = createCapabilityHost({ permissions: new PermissionHost() });
  await host.load(manifest);
  const turn = await host.beginTurn({ sessionKey: 'first', message: MESSAGE });
  let t = performance.now();
  await turn.modelTools({ provider: 'anthropic' });
  const list = performance.now() - t; t = performance.now();
  await turn.execute('discover', { query: 'weather' });
  const d1 = performance.now() - t; t = performance.now();
  await turn.execute('discover', { query: 'translate news' });
  const d2 = performance.now() - t;
  console.log(`list ${list.toFixed(2)} discover ${d1.toFixed(2)} second ${d2.toFixed(2)}`);
  await turn.end(); await host.close();
}
