/**
 * Which transfers each round event causes. Every id is derived from the table,
 * the round and the bet, so a retry or a replay after a crash can never move
 * money twice: the ledger answers "exists" for an id it already holds.
 */
import {
  SAR_ACCOUNT_ID,
  bankrollAccount,
  type Currency,
  inPlayAccount,
  type TransferInput,
  walletAccount,
} from '../ledger/index.js';
import { assertAligned, type PlacedBet, type RoundEvent, type Settlement } from '../table/index.js';

export const roundReference = (tableId: string, roundNo: number): string =>
  `round:${tableId}:${roundNo}`;

/** The round an event belongs to, as the state holds it once the event is applied. */
export interface RoundMoney {
  readonly bets: readonly PlacedBet[];
  readonly settlement: Settlement | null;
}

/**
 * The transfers an event implies. Placing a bet moves the stake from the
 * wallet to the table's in-play account; withdrawing it moves it back; paying
 * all prizes (Art. 4) moves the round's stakes to the bankroll and every
 * winning bet's return (stake plus winnings) from the bankroll to the wallet.
 */
export function transfersFor(
  event: RoundEvent,
  round: RoundMoney,
  currency: Currency,
): TransferInput[] {
  // Object literals of one shape, no spread: a bet's transfer is built on every bet.
  switch (event.type) {
    case 'bet-placed':
      return [
        {
          id: `bet:${event.tableId}:${event.roundNo}:${event.bet.betId}`,
          debitAccountId: walletAccount(event.bet.playerId).id,
          creditAccountId: inPlayAccount(event.tableId).id,
          amountMinor: event.bet.stakeMinor,
          currency,
          kind: 'bet',
          reference: roundReference(event.tableId, event.roundNo),
        },
      ];
    case 'bet-withdrawn':
      return [
        {
          id: `withdraw:${event.tableId}:${event.roundNo}:${event.bet.betId}`,
          debitAccountId: inPlayAccount(event.tableId).id,
          creditAccountId: walletAccount(event.bet.playerId).id,
          amountMinor: event.bet.stakeMinor,
          currency,
          kind: 'bet-withdrawn',
          reference: roundReference(event.tableId, event.roundNo),
        },
      ];
    case 'prizes-paid':
      return payoutTransfers(event.tableId, event.roundNo, round, currency);
    default:
      return [];
  }
}

/**
 * Art. 4: the round's prizes. One transfer collects every stake of the round
 * into the bankroll, then one a winning bet pays its return to the wallet.
 * They are linked: they land together or not at all.
 */
export function payoutTransfers(
  tableId: string,
  roundNo: number,
  { bets, settlement }: RoundMoney,
  currency: Currency,
): TransferInput[] {
  if (settlement === null) throw new Error(`round ${tableId}:${roundNo} is paid unsettled`);
  assertAligned(bets, settlement);
  const { returnsMinor } = settlement;
  const reference = roundReference(tableId, roundNo);
  const bankroll = bankrollAccount(tableId).id;
  const transfers: TransferInput[] = [];
  if (settlement.totalStakeMinor > 0) {
    transfers.push({
      id: `stakes:${tableId}:${roundNo}`,
      debitAccountId: inPlayAccount(tableId).id,
      creditAccountId: bankroll,
      amountMinor: settlement.totalStakeMinor,
      currency,
      kind: 'stakes-collected',
      reference,
      linked: true,
    });
  }
  const payoutId = `payout:${tableId}:${roundNo}:`;
  for (let i = 0; i < bets.length; i++) {
    const returnedMinor = returnsMinor[i]!;
    if (returnedMinor === 0) continue;
    const bet = bets[i]!;
    transfers.push({
      id: payoutId + bet.betId,
      debitAccountId: bankroll,
      creditAccountId: walletAccount(bet.playerId).id,
      amountMinor: returnedMinor,
      currency,
      kind: 'payout',
      reference,
      linked: true,
    });
  }
  // The chain ends at the last transfer.
  const last = transfers.at(-1);
  if (last !== undefined) transfers[transfers.length - 1] = { ...last, linked: false };
  return transfers;
}

/**
 * Lei 10/2012, art. 11: a barred player's net winnings of a round (returns
 * less stakes, when positive) revert to the Macau SAR, once the round is paid
 * (docs/export-format.md: `winnings-forfeited`, the `art11-forfeit` transfer).
 */
export interface Forfeit {
  readonly tableId: string;
  readonly roundNo: number;
  readonly playerId: string;
  readonly stakesMinor: number;
  readonly returnsMinor: number;
  readonly forfeitedMinor: number;
  readonly transferId: string;
}

/** Each listed player's forfeit of a paid round, in the order of their first bet; none without net winnings. */
export function forfeitsOf(
  tableId: string,
  roundNo: number,
  { bets, settlement }: RoundMoney,
  barred: ReadonlySet<string>,
): Forfeit[] {
  if (settlement === null || barred.size === 0) return [];
  const byPlayer = new Map<string, { stakesMinor: number; returnsMinor: number }>();
  bets.forEach((bet, i) => {
    if (!barred.has(bet.playerId)) return;
    const sums = byPlayer.get(bet.playerId) ?? { stakesMinor: 0, returnsMinor: 0 };
    sums.stakesMinor += bet.stakeMinor;
    sums.returnsMinor += settlement.returnsMinor[i]!;
    byPlayer.set(bet.playerId, sums);
  });
  return [...byPlayer].flatMap(([playerId, sums]) => {
    const forfeitedMinor = sums.returnsMinor - sums.stakesMinor;
    if (forfeitedMinor <= 0) return [];
    const transferId = `forfeit:${tableId}:${roundNo}:${playerId}`;
    return [{ tableId, roundNo, playerId, ...sums, forfeitedMinor, transferId }];
  });
}

export const forfeitTransfer = (forfeit: Forfeit, currency: Currency): TransferInput => ({
  id: forfeit.transferId,
  debitAccountId: walletAccount(forfeit.playerId).id,
  creditAccountId: SAR_ACCOUNT_ID,
  amountMinor: forfeit.forfeitedMinor,
  currency,
  kind: 'art11-forfeit',
  reference: roundReference(forfeit.tableId, forfeit.roundNo),
});
