/**
 * What the internal route takes from the other nodes of a floor
 * (src/server/forward.ts): the commands their clients and services asked for,
 * parsed with the schemas of the public commands they came from, plus the
 * fields the passing node fills in (who asked), and the entries the services
 * journal with them checked against the journal's own schemas. A node secret
 * says which node sent a command; this says the command is one a node sends.
 *
 * The same rules as the public routes: a staff member named as who did it
 * holds the role the public route asks for, and is not disabled
 * (`actorProblem`). A bet's player is not looked up: the ledger refuses a
 * wallet that is not there, and a bet's path stays as it was.
 */
import { z } from 'zod';
import { type JournalType, payloadSchema } from '../journal/index.js';
import type { Role, Store, User } from '../ledger/index.js';
import type { CommandRequest } from '../service/table-service.js';
import { croupierCommandBody, id, limitsBody, placeBetBody } from './schemas.js';

/** An entry a command journals, of one of `types`, for the command's table (checked below). */
function journalInput<K extends JournalType>(type: K) {
  return z.strictObject({ tableId: id, type: z.literal(type), payload: payloadSchema(type) });
}

/** The croupier's steps, as POST /tables/:tableId/commands takes them, with the croupier. */
const croupierCommands = croupierCommandBody.options.map((o) => o.extend({ croupierId: id }));

const heldEntry = journalInput('table-held');
const releasedEntry = journalInput('table-hold-released');

const forwardedCommand = z.discriminatedUnion('type', [
  placeBetBody.extend({ type: z.literal('place-bet'), playerId: id }),
  ...croupierCommands,
  z.strictObject({ type: z.literal('withdraw-bet'), betId: id, playerId: id }),
  // The betting timer's (Art. 3.1): it carries nothing, the round machine judges the time.
  z.strictObject({ type: z.literal('tick') }),
  z.strictObject({ type: z.literal('change-limits'), limits: limitsBody, supervisorId: id }),
  z.strictObject({ type: z.literal('set-open'), open: z.boolean(), supervisorId: id }),
  // Art. 1.1: a fairness hold names the alert in its table-held entry, whose reason it shows.
  z
    .strictObject({
      type: z.literal('hold-table'),
      hold: z.strictObject({
        reason: z.string().min(1).max(500),
        article: z.literal('1.1'),
        sinceMs: z.number().int().min(0),
      }),
      entries: z.tuple([heldEntry]),
    })
    .refine((c) => c.hold.reason === c.entries[0].payload.reason, {
      message: 'the hold must give the reason of its table-held entry',
      path: ['hold', 'reason'],
    }),
  // A supervisor's acknowledgement (new dice release a hold with their change).
  z.strictObject({
    type: z.literal('release-hold'),
    entries: z.tuple([releasedEntry]),
  }),
  // New dice between rounds (Art. 1.1), and the release of a hold they end.
  z.strictObject({
    type: z.literal('record-between-rounds'),
    entries: z.array(journalInput('dice-changed')).min(1).max(1),
    releasesHold: releasedEntry.optional(),
  }),
  // Art. 8: adopted options carry the DICJ authorization of their proposal.
  z.strictObject({
    type: z.literal('change-house-options'),
    options: z.strictObject({
      shaker: z.enum(['lever', 'electronic']),
      displayBoard: z.boolean(),
      paytable: z.unknown(),
    }),
    authorization: z.strictObject({
      mark: z.literal('dicj'),
      reference: z.string().min(1).max(200),
      authorizedOn: z.string(),
      recordedBy: id,
      proposalId: id,
    }),
    changedBy: id,
    entries: z.array(journalInput('house-options-adopted')).min(1).max(1),
  }),
]);

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,200}$/;

const forwardedRequest = z
  .strictObject({
    tableId: id,
    command: forwardedCommand,
    idempotencyKey: z.string().regex(IDEMPOTENCY_KEY).optional(),
  })
  .refine((r) => entriesOf(r.command).every((e) => e.tableId === r.tableId && onTable(e, r)), {
    message: "a command's entries are its table's",
    path: ['command', 'entries'],
  });

/** Commands in one request at most (the router sends 2,000 at most: forwardBatchMax). */
const FORWARD_COMMANDS_MAX = 10_000;

/** The body of the internal route: the commands a node passes, in one request. */
const forwardBody = z.strictObject({
  commands: z.array(forwardedRequest).min(1).max(FORWARD_COMMANDS_MAX),
});

type ForwardedCommand = z.infer<typeof forwardedCommand>;

interface Entry {
  readonly tableId: string;
  readonly payload: unknown;
}

/** The entries a command journals (a between-rounds record's release included). */
function entriesOf(command: ForwardedCommand): readonly Entry[] {
  if (!('entries' in command)) return [];
  const released = 'releasesHold' in command ? command.releasesHold : undefined;
  return [...command.entries, ...(released === undefined ? [] : [released])];
}

/** An entry whose payload names a table names the command's. */
function onTable({ payload }: Entry, request: { readonly tableId: string }): boolean {
  const named = typeof payload === 'object' && payload !== null && 'tableId' in payload;
  return !named || payload.tableId === request.tableId;
}

/**
 * Parses the internal route's body: the commands, or the first problem
 * (where, and what), as a public route would name it.
 */
export function parseForwardBody(
  body: unknown,
): { ok: true; commands: CommandRequest[] } | { ok: false; problem: string } {
  const parsed = forwardBody.safeParse(body);
  if (parsed.success)
    // The shapes are the service's; the round machine checks faces and ids as for any command.
    return { ok: true, commands: parsed.data.commands as unknown as CommandRequest[] };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: `${issue.path.join('.') || 'body'}: ${issue.message}` };
}

/** Who a command names as having done it, and the roles its public route lets do it. */
function actorOf(command: CommandRequest['command']): [string, readonly Role[]] | undefined {
  switch (command.type) {
    case 'set-open':
    case 'change-limits':
      return [command.supervisorId, ['supervisor']];
    case 'release-hold': {
      // The schema let in one table-hold-released entry; anything else names nobody.
      const [entry] = command.entries;
      return [entry?.type === 'table-hold-released' ? entry.payload.by : '', ['supervisor']];
    }
    case 'record-between-rounds': {
      const [entry] = command.entries;
      const by = entry?.type === 'dice-changed' ? entry.payload.changedBy : '';
      return [by, ['croupier', 'supervisor']];
    }
    case 'place-bet':
    case 'withdraw-bet':
    case 'tick':
    case 'hold-table':
    case 'change-house-options':
      return undefined;
    default:
      return 'croupierId' in command && command.croupierId !== undefined
        ? [command.croupierId, ['croupier']]
        : undefined;
  }
}

/**
 * The public route's rule for who did it: an enabled user of one of its
 * roles. The problem in words, or null; `users` keeps the users read for one
 * request's commands.
 */
export async function actorProblem(
  store: Store,
  request: CommandRequest,
  users: Map<string, Promise<User | undefined>>,
): Promise<string | null> {
  const actor = actorOf(request.command);
  if (actor === undefined) return null;
  const [userId, roles] = actor;
  let user = users.get(userId);
  if (user === undefined) users.set(userId, (user = store.getUser(userId)));
  const found = await user;
  if (found === undefined) return `${request.command.type} by ${userId}: there is no such user`;
  if (found.disabled) return `${request.command.type} by ${userId}: the user is disabled`;
  if (!roles.includes(found.role))
    return `${request.command.type} by ${userId}: a ${found.role} may not (${roles.join(' or ')} only)`;
  return null;
}
