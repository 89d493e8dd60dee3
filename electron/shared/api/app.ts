/** App-level methods: identity, data directory, active backend, health. */
import { z } from 'zod';
import { method } from './define';

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  dataDir: z.string(),
  backend: z.string().describe('active model backend, e.g. "reference"'),
  platform: z.string(),
  mode: z.enum(['electron', 'browser', 'cli']),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const healthCheckSchema = z.object({
  name: z.string().describe('what was checked: "csprng", "data directory", "database"'),
  ok: z.boolean(),
  detail: z.string().describe('one line: what was found, or why the check failed'),
});
export type HealthCheck = z.infer<typeof healthCheckSchema>;

export const healthSchema = z.object({
  ok: z.boolean().describe('true when every check passed'),
  checks: z.array(healthCheckSchema),
});

export const appMethods = {
  'app.info': method(z.object({}).strict(), appInfoSchema, 'Version, data directory, active backend, platform'),
  'app.health': method(z.object({}).strict(), healthSchema, 'Quick self-check: CSPRNG, data directory writable, app database opens'),
};
