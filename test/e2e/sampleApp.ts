/**
 * The set-up of the pages that spend or audit: the app in Chromium with the sample e-mails as
 * "Mail sample" under a budget of ε 6, δ 10⁻⁶.
 */
import { startApp, type AppSession } from './harness';

export const SAMPLE = 'Mail sample';

export async function startWithSampleBudget(): Promise<AppSession> {
  const app = await startApp();
  await app.call('vault.createSample', { name: SAMPLE });
  await app.call('budget.set', { dataset: SAMPLE, epsilon: 6, delta: 1e-6 });
  return app;
}
