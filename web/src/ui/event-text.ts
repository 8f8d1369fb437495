/** One line per round event, for the croupier's log and the inspector's journal. */
import type { Key } from '../i18n/dict.js';
import { DICT } from '../i18n/dict.js';
import { lang, t } from '../i18n/i18n.js';
import { spotNameById } from '../i18n/spot-names.js';
import { formatAmount } from '../logic/money.js';

export function eventTitle(type: string): string {
  const key = `event.${type}`;
  return key in DICT ? t(key as Key) : type;
}

/**
 * The details worth a glance of a journal payload (a round event, or a staff
 * action of the inspector's journal): dice, bet, reason, pull number, totals.
 */
export function eventDetail(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const e: Readonly<Record<string, unknown>> = { ...payload };
  // Another player's bet comes as a stake on a spot, without its player (docs/api.md).
  const bet = e['bet'] as { spot: string; stakeMinor: number; playerId?: string } | undefined;
  if (bet !== undefined) {
    const stake = `${spotNameById(bet.spot, lang())} ${formatAmount(bet.stakeMinor)}`;
    return bet.playerId === undefined ? stake : `${stake} (${bet.playerId})`;
  }
  if (Array.isArray(e['dice'])) return (e['dice'] as number[]).join('-');
  if (typeof e['reason'] === 'string')
    return t(`croupier.void.${e['reason'] as 'stacked' | 'tilted'}`);
  if (typeof e['pullNo'] === 'number') return `${e['pullNo']}/3`;
  if (typeof e['totalReturnedMinor'] === 'number') return formatAmount(e['totalReturnedMinor']);
  if (typeof e['totalStakeMinor'] === 'number') return formatAmount(e['totalStakeMinor']);
  // Staff actions (accounts, tables): whom it concerned and who did it.
  const by = e['by'] ?? e['createdBy'] ?? e['changedBy'];
  if (typeof by === 'string') {
    const whom = e['username'] ?? e['userId'];
    return typeof whom === 'string' ? `${whom} ← ${by}` : `← ${by}`;
  }
  return '';
}
