/**
 * The kernel's events socket (`/ws/events`, default queue and buffer limits) for the project at
 * argv[2]: each `broadcast <n>` line on stdin triggers the `tick` signal n times, which the
 * SocketManager pushes to every subscribed socket.
 */
import { Fluid } from '@fw/kernel';
import { announce } from '../lib/server.ts';
import { onBroadcast, tickData } from './broadcast.ts';

const fluid = new Fluid({ root: process.argv[2] ?? '.', env: {} });
fluid.events.createSignal('tick');
announce(await fluid.listen(0, '127.0.0.1'));
onBroadcast((count) => {
  for (let n = 0; n < count; n++) fluid.events.trigger('tick', tickData(n));
});
