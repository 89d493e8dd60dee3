/**
 * Every CLI command group registers itself here (one line each).
 */
import type { Command } from 'commander';
import { registerAccount } from './account';
import { registerDoctor } from './doctor';
import { registerInfo } from './info';
import { registerModel } from './model';
import { registerServe } from './serve';
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
  registerAccount,
];
