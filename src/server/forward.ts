/**
 * The internal route on which a table's lease holder takes the commands other
 * nodes of the floor pass it (src/service/command-router.ts). It answers only a
 * request that carries the floor's node secret; to anybody else it is not
 * there (404 `not_found`, as for any unknown path), so clients never reach it.
 */
import type { FastifyInstance } from 'fastify';
import { type Store, StoreUnavailableError, type User } from '../ledger/index.js';
import {
  type CommandRouter,
  type ForwardAnswer,
  FORWARD_PATH,
  NODE_SECRET_HEADER,
} from '../service/command-router.js';
import type { TableService } from '../service/table-service.js';
import { actorProblem, parseForwardBody } from './forward-commands.js';
import { errorBody } from './http-error.js';

/** A batch of passed commands may hold thousands of bets. */
const FORWARD_BODY_BYTES_MAX = 32 * 1024 * 1024;

export function forwardRoutes(
  fastify: FastifyInstance,
  store: Store,
  service: TableService,
  router: CommandRouter,
): void {
  fastify.post(
    FORWARD_PATH,
    {
      bodyLimit: FORWARD_BODY_BYTES_MAX,
      // The secret is checked before the body is read: a body nobody vouched for is never parsed.
      onRequest: async (request, reply) => {
        const secret = request.headers[NODE_SECRET_HEADER];
        if (!router.authentic(typeof secret === 'string' ? secret : undefined))
          return reply.status(404).send(errorBody('not_found', `nothing at POST ${FORWARD_PATH}`));
      },
    },
    async (request, reply) => {
      // The same schemas and rules as the public commands (forward-commands.ts): the secret
      // says which node sent them, not that they are commands a node sends.
      const parsed = parseForwardBody(request.body);
      if (!parsed.ok) return reply.status(400).send(errorBody('invalid_request', parsed.problem));
      const users = new Map<string, Promise<User | undefined>>();
      for (const [i, command] of parsed.commands.entries()) {
        const problem = await actorProblem(store, command, users);
        if (problem !== null)
          return reply.status(403).send(errorBody('forbidden', `commands.${i}: ${problem}`));
      }
      const answers = await Promise.all(
        parsed.commands.map((command) =>
          service.executeHere(command).then(
            (outcome): ForwardAnswer => ({ outcome }),
            (error: unknown): ForwardAnswer => {
              // Retryable on the passing node's side: its client gets the same 503.
              if (error instanceof StoreUnavailableError)
                return { error: { code: error.code, message: error.message } };
              throw error;
            },
          ),
        ),
      );
      return { answers };
    },
  );
}
