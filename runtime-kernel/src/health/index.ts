/**
 * `@fw/kernel/health`: liveness and readiness routes (`/healthz`, `/readyz`), readiness checks
 * (`fluid.health.check(name, fn)`), the drain before shutdown and the `SECRET_KEY` fingerprint
 * check, and the plugin that gives the app `fluid.health`. See `@fw/kernel/docs/deployment.md`.
 */
export { health } from './plugin.js';
export { Health, isLoopback, type HealthConfig } from './health.js';
export type { ReadinessCheck, CheckOptions, CheckResult, Readiness } from './checks.js';
export { secretBeacon, secretFingerprint, type SecretBeacon } from './secret.js';
