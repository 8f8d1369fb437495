/**
 * Which transfers each round event causes. Every id is derived from the table,
 * the round and the bet, so a retry or a replay after a crash can never move
 * money twice: the ledger answers "exists" for an id it already holds.
 */
import {
  bankrollAccount,
  type Currency,
  inPlayAccount,
  type TransferInput,
  walletAccount,
} from '../ledger/index.js';
import type { RoundEvent, Settlement } from '../table/index.js';

export const roundReference = (tableId: string, roundNo: number): string =>
  `round:${tableId}:${roundNo}`;

/**
 * The transfers an event implies. Placing a bet moves the stake from the
 * wallet to the table's in-play account; withdrawing it moves it back; paying
 * all prizes (Art. 4) moves the round's stakes to the bankroll and every
 * winning bet's return (stake plus winnings) from the bankroll to the wallet.
 */
export function transfersFor(
  event: RoundEvent,
  settlement: Settlement | null,
  currency: Currency,
): TransferInput[] {
  const reference = roundReference(event.tableId, event.roundNo);
  const base = { currency, reference };
  switch (event.type) {
    case 'bet-placed':
      return [
        {
          ...base,
          id: `bet:${event.tableId}:${event.roundNo}:${event.bet.betId}`,
          debitAccountId: walletAccount(event.bet.playerId).id,
          creditAccountId: inPlayAccount(event.tableId).id,
          amountMinor: event.bet.stakeMinor,
          kind: 'bet',
        },
      ];
    case 'bet-withdrawn':
      return [
        {
          ...base,
          id: `withdraw:${event.tableId}:${event.roundNo}:${event.bet.betId}`,
          debitAccountId: inPlayAccount(event.tableId).id,
          creditAccountId: walletAccount(event.bet.playerId).id,
          amountMinor: event.bet.stakeMinor,
          kind: 'bet-withdrawn',
        },
      ];
    case 'prizes-paid':
      return payoutTransfers(event.tableId, event.roundNo, settlement!, currency);
    default:
      return [];
  }
}

/**
 * Art. 4: the round's prizes. One transfer collects every stake of the round
 * into the bankroll, then one a winning bet pays its return to the wallet.
 */
export function payoutTransfers(
  tableId: string,
  roundNo: number,
  settlement: Settlement,
  currency: Currency,
): TransferInput[] {
  const reference = roundReference(tableId, roundNo);
  const transfers: TransferInput[] = [];
  if (settlement.totalStakeMinor > 0) {
    transfers.push({
      id: `stakes:${tableId}:${roundNo}`,
      debitAccountId: inPlayAccount(tableId).id,
      creditAccountId: bankrollAccount(tableId).id,
      amountMinor: settlement.totalStakeMinor,
      currency,
      kind: 'stakes-collected',
      reference,
    });
  }
  for (const result of settlement.results) {
    if (result.returnedMinor === 0) continue;
    transfers.push({
      id: `payout:${tableId}:${roundNo}:${result.betId}`,
      debitAccountId: bankrollAccount(tableId).id,
      creditAccountId: walletAccount(result.playerId).id,
      amountMinor: result.returnedMinor,
      currency,
      kind: 'payout',
      reference,
    });
  }
  return transfers;
}
