import type { Command } from 'commander';
import type { Io } from '../io.js';
import { registerAudit } from './audit.js';
import { registerBackup } from './backup.js';
import { registerExclusions } from './exclusions.js';
import { registerExport } from './export.js';
import { registerServe } from './serve.js';
import { registerOdds } from './odds.js';
import { registerPlay } from './play.js';
import { registerRecall } from './recall.js';
import { registerReport } from './report.js';
import { registerRngTest } from './rng-test.js';
import { registerSettle } from './settle.js';
import { registerSimulate } from './simulate.js';
import { registerUsers } from './users.js';
import { registerVerifyRoll } from './verify-roll.js';

/** Each subcommand adds itself to the program, writing to the given streams. */
export type Register = (program: Command, io: Io) => void;

export const COMMANDS: readonly Register[] = [
  registerServe,
  registerOdds,
  registerSettle,
  registerSimulate,
  registerRngTest,
  registerVerifyRoll,
  registerAudit,
  registerExport,
  registerBackup,
  registerPlay,
  registerRecall,
  registerReport,
  registerUsers,
  registerExclusions,
];
