/**
 * The far process of bench/realtime.ts's Redis rows: a kernel app on the project at argv[2]
 * (its fw.json sets EVENTS_REDIS_URL) answering each `ping` event with a `pong` event carrying
 * the same payload, and a raw ioredis echo (`raw:ping` → `raw:pong`). Prints `ready` once both
 * are subscribed.
 */
import { Fluid } from '@fw/kernel';
import { Redis } from 'ioredis';

const [root = '.', redisUrl = ''] = process.argv.slice(2);
const fluid = new Fluid({ root, env: {} });
fluid.events.createSignal('pong');
fluid.events.event('ping', (payload) => fluid.events.trigger('pong', payload));
await fluid.mix();
const pub = new Redis(redisUrl);
const sub = new Redis(redisUrl);
sub.on('message', (_channel: string, text: string) => void pub.publish('raw:pong', text));
await sub.subscribe('raw:ping');
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void Promise.all([fluid.close(), pub.quit(), sub.quit()]).then(() => process.exit(0));
});
