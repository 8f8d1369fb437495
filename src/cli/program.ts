/**
 * The `cussec` command line. Each subcommand lives in `commands/` and registers
 * itself on the program; this file only wires them and turns failures into one
 * line on stderr with a non-zero exit.
 */
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.js';
import { report } from './errors.js';
import { type Io, processIo } from './io.js';
import { CUSSEC_VERSION } from '../version.js';

export function buildProgram(io: Io): Command {
  const program = new Command('cussec')
    .description("Sic Bo («Cussec») as Macau's Despacho Regulamentar Externo n.º 57/2004 lays down")
    .version(CUSSEC_VERSION)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .showHelpAfterError('(run "cussec help" for the commands)')
    .exitOverride();
  for (const register of COMMANDS) register(program, io);
  return program;
}

/** Runs the command line on `argv` (without node and the script) and returns the exit code. */
export async function run(argv: readonly string[], io: Io = processIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed its own message (unknown option, --help, …).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return report(error, io.stderr);
  }
}
