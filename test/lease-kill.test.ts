/**
 * The lease holder dies while the other nodes are passing it commands: three
 * `cussec serve` nodes on a PostgreSQL database of the test's own, players
 * betting through the two nodes that do not hold the table's lease (so every
 * bet is passed to the holder), and the holder killed with SIGKILL mid-stream.
 * A player whose bet gets a 5xx (or no answer) sends it again with the same
 * idempotency key until it gets an answer. Then: every bet was acknowledged,
 * each is in the ledger once, retries included, and a node that survived now
 * holds the lease under a higher epoch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FloorNode, call, openBetting, TestFloor } from './floor-nodes.js';

const PG_URL = process.env['CUSSEC_TEST_PG_URL'];
const PLAYERS = 8;
const BET_BEFORE_KILL_MS = 1_500;
const BET_AFTER_KILL_MS = 2_500;

describe.skipIf(PG_URL === undefined)(
  'killing the lease holder while others pass it commands',
  () => {
    let floor: TestFloor;

    beforeAll(async () => {
      floor = await TestFloor.create(PG_URL!);
      for (let i = 0; i < 3; i++) await floor.start();
    }, 120_000);

    afterAll(async () => {
      await floor?.destroy();
    }, 60_000);

    it('acknowledges every bet once, retries included, and the lease moves on', async () => {
      const tokens = await floor.seedPlayers(PLAYERS);
      // The croupier's commands go through the first node: it or the node it passes them to holds T1.
      await openBetting(floor, 'T1');
      const holder = (await floor.holderOf('T1'))!;
      expect(holder).toBeDefined();
      const others = floor.nodes.filter((n) => n !== holder);
      const [{ lease_epoch: epochBefore }] = (await floor.sql(
        "SELECT lease_epoch FROM tables WHERE id = 'T1'",
      )) as [{ lease_epoch: number }];

      const acked = new Map<string, number>();
      const retried: string[] = [];
      let stopAt = Number.POSITIVE_INFINITY;
      const player = async (token: string, p: number): Promise<void> => {
        const node: FloorNode = others[p % others.length]!;
        for (let n = 0; Date.now() < stopAt; n++) {
          const betId = `p${p}-${n}`;
          for (let attempt = 1; ; attempt++) {
            const answer = await call(
              node.base,
              token,
              'POST',
              '/api/v1/tables/T1/bets',
              { betId, spot: n % 2 === 0 ? 'small' : 'big', stakeMinor: 1_000 },
              { 'idempotency-key': betId },
            ).catch((error: unknown) => ({ status: 599, body: String(error) }));
            if (answer.status === 201) {
              acked.set(betId, attempt);
              break;
            }
            if (answer.status < 500) throw new Error(`${betId}: ${JSON.stringify(answer)}`);
            retried.push(`${betId}: ${answer.status} ${JSON.stringify(answer.body)}`);
            if (attempt > 100) throw new Error(`${betId}: no answer in 100 tries`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      };
      const betting = Promise.all(tokens.map((token, p) => player(token, p)));
      await new Promise((resolve) => setTimeout(resolve, BET_BEFORE_KILL_MS));
      const ackedBeforeKill = acked.size;
      holder.server.child.kill('SIGKILL');
      await holder.server.exited;
      stopAt = Date.now() + BET_AFTER_KILL_MS;
      await betting;

      expect(ackedBeforeKill).toBeGreaterThan(0);
      // Bets were in flight at the holder when it died: their players got a 503 and sent them again.
      expect(retried.length).toBeGreaterThan(0);
      expect(acked.size).toBeGreaterThan(ackedBeforeKill);
      const stakes = await floor.sql(
        "SELECT substring(id from '[^:]*$') AS bet_id, count(*)::int AS n FROM transfers WHERE kind = 'bet' GROUP BY 1",
      );
      const inLedger = new Map(stakes.map((r) => [String(r['bet_id']), Number(r['n'])]));
      const wrong = [...acked.keys()].filter((id) => inLedger.get(id) !== 1);
      expect(wrong).toEqual([]);
      // Nothing in the ledger that no player saw acknowledged.
      expect([...inLedger.keys()].filter((id) => !acked.has(id))).toEqual([]);
      const after = await floor.holderOf('T1');
      expect(others).toContain(after);
      const [{ lease_epoch: epochAfter }] = (await floor.sql(
        "SELECT lease_epoch FROM tables WHERE id = 'T1'",
      )) as [{ lease_epoch: number }];
      expect(epochAfter).toBeGreaterThan(epochBefore);
      console.info(
        `lease kill: ${acked.size} bets acknowledged (${ackedBeforeKill} before the kill), ${retried.length} retries: ${[...new Set(retried.map((r) => r.replace(/^[^:]*: /, '').slice(0, 60)))].join('; ')}`,
      );
    }, 120_000);
  },
);
