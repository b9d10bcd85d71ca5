/**
 * `@fw/kernel/sockets`: the plugin serving the app's websocket routes (`fluid.sockets`, upgrade
 * hooks, guards), the connection context (`currentContext()`) and the events socket
 * (`SocketManager`, `/ws/events`). The route table itself (`fluid.ws`, `WsRouter`) is the core's.
 * See `@fw/kernel/docs/sockets.md`.
 */
export { sockets, Sockets } from './sockets.js';
export { currentContext, requireContext, runWithContext, SocketContext } from './context.js';
export { acceptUpgrade } from './upgrade.js';
export type { UpgradeHook, AcceptOptions } from './upgrade.js';
export { SocketManager } from './manager.js';
export { MAX_IN_FLIGHT } from './inbox.js';
export type { QueryHandler, QueryOptions, QueryEntry, SocketManagerApp } from './manager.js';
export { parseFrame, FrameError } from './frames.js';
export type { ClientFrame, AnswerFrame, EventFrame, FrameId, FrameAction } from './frames.js';
