/** The app's pages, in navigation order. Hash routes: #/vault, #/budget, … */
import type { ComponentType } from 'react';
import ModelsPage from './pages/models/ModelsPage';
import SynthesizePage from './pages/synthesize/SynthesizePage';
import VaultPage from './pages/vault/VaultPage';
import BudgetPage from './pages/budget/BudgetPage';
import AskPage from './pages/ask/AskPage';
import AuditPage from './pages/audit/AuditPage';
import AugmentPage from './pages/augment/AugmentPage';

export interface Route {
  path: string;
  label: string;
  Page: ComponentType;
}

export const routes: Route[] = [
  { path: 'vault', label: 'Vault', Page: VaultPage },
  { path: 'budget', label: 'Budget', Page: BudgetPage },
  { path: 'synthesize', label: 'Synthesize', Page: SynthesizePage },
  { path: 'ask', label: 'Ask', Page: AskPage },
  { path: 'augment', label: 'Augment', Page: AugmentPage },
  { path: 'audit', label: 'Audit', Page: AuditPage },
  { path: 'models', label: 'Models', Page: ModelsPage },
];

export function routeFromHash(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  return routes.find((r) => r.path === path) ?? routes[0];
}
