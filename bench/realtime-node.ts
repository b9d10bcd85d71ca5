/**
 * The far process of bench/realtime.ts: a Fluid on the project at argv[2] (Redis bus on) that
 * answers each `ping` event with a `pong` event carrying the same payload, and a raw ioredis
 * echo (`raw:ping` → `raw:pong`) as the baseline. Prints `ready` once both are subscribed.
 */
import { Redis } from 'ioredis';
import { Fluid } from '../runtime-kernel/src/index.ts';
import { createLogger } from '../runtime-kernel/src/core/index.ts';

const [root, redisUrl] = process.argv.slice(2) as [string, string];
const fluid = new Fluid({ root, env: {}, logger: createLogger('silent') });
fluid.events.createSignal('pong');
fluid.events.event('ping', (payload) => fluid.events.trigger('pong', payload));
await fluid.mix();

const pub = new Redis(redisUrl);
const sub = new Redis(redisUrl);
sub.on('message', (_channel: string, text: string) => void pub.publish('raw:pong', text));
await sub.subscribe('raw:ping');
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void Promise.all([fluid.close(), pub.quit(), sub.quit()]).then(() => process.exit(0));
});
