/**
 * `@fw/kernel/testing`: helpers for an app's own tests. `testClient(fluid)` is an HTTP client
 * bound to the app (a cookie jar for sessions, CSRF tokens handled), and `buildFrontend()` builds a
 * Vite app's frontend once for all test files; see `@fw/kernel/docs/testing-apps.md`.
 * Only tests import it: nothing of it loads in a running app.
 */
export { testClient, TEST_CSRF_PATH } from './client.js';
export type { TestClient, TestRequestInit, TestResponse } from './client.js';
export { buildFrontend } from './frontend.js';
