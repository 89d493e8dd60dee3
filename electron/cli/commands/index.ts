/**
 * Every CLI command group registers itself here (one line each).
 */
import type { Command } from 'commander';
import { registerAccount } from './account';
import { registerAsk } from './ask';
import { registerAudit } from './audit';
import { registerAugment } from './augment';
import { registerBudget } from './budget';
import { registerDoctor } from './doctor';
import { registerInfo } from './info';
import { registerLedger } from './ledger';
import { registerModel } from './model';
import { registerPlan } from './plan';
import { registerPublicSource } from './publicSource';
import { registerServe } from './serve';
import { registerSizes } from './sizes';
import { registerSynth } from './synth';
import { registerVault } from './vault';

type Register = (program: Command) => void;

export const commandGroups: Register[] = [
  registerInfo,
  registerServe,
  registerModel,
  registerDoctor,
  registerVault,
  registerSynth,
  registerAsk,
  registerAccount,
  registerBudget,
  registerLedger,
  registerPlan,
  registerSizes,
  registerAudit,
  registerPublicSource,
  registerAugment,
];
