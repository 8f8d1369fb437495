import type { Command } from 'commander';
import type { Io } from '../io.js';
import { registerOdds } from './odds.js';
import { registerSettle } from './settle.js';

/** Each subcommand adds itself to the program, writing to the given streams. */
export type Register = (program: Command, io: Io) => void;

export const COMMANDS: readonly Register[] = [registerOdds, registerSettle];
