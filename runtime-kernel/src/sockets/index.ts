/**
 * Sockets: websocket routes with upgrade guards (`WsRouter`), the connection context
 * (`currentContext()`), the events socket (`SocketManager`, `/ws/events`) and the app plugin
 * (`fluid.sockets`). See docs/sockets.md.
 */
export { WsRouter } from './router.js';
export type { WsHandler, WsMatch, WsRouterOptions, WsGuard, WsRouteOptions } from './router.js';
export { currentContext, requireContext, runWithContext, SocketContext } from './context.js';
export { acceptUpgrade } from './upgrade.js';
export type { UpgradeHook, AcceptOptions } from './upgrade.js';
export { SocketManager } from './manager.js';
export type { QueryHandler, QueryOptions, QueryEntry, SocketManagerApp } from './manager.js';
export { parseFrame, FrameError } from './frames.js';
export type { ClientFrame, AnswerFrame, EventFrame, FrameId, FrameAction } from './frames.js';
export { Sockets } from './sockets.js';
export type { SocketsApp } from './sockets.js';
