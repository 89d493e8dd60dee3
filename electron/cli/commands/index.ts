/**
 * Every CLI command group registers itself here (one line each).
 */
import type { Command } from 'commander';
import { registerInfo } from './info';
import { registerServe } from './serve';

type Register = (program: Command) => void;

export const commandGroups: Register[] = [
  registerInfo,
  registerServe,
];
