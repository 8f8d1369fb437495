/** One line per round event, for the croupier's log and the inspector's journal. */
import type { Key } from '../i18n/dict.js';
import { DICT } from '../i18n/dict.js';
import { lang, t } from '../i18n/i18n.js';
import { spotNameById } from '../i18n/spot-names.js';
import { formatAmount, formatMoney } from '../logic/money.js';

/** How a log prints amounts (in the table's currency) and names players (never by id). */
export interface DetailOptions {
  readonly currency?: string;
  /** A player's display name, when known; an unknown player is left unnamed. */
  readonly nameOf?: (playerId: string) => string | undefined;
}

export function eventTitle(type: string): string {
  const key = `event.${type}`;
  return key in DICT ? t(key as Key) : type;
}

/**
 * The details worth a glance of a journal payload (a round event, or a staff
 * action of the inspector's journal): dice, bet, reason, pull number, totals.
 */
export function eventDetail(payload: unknown, options: DetailOptions = {}): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const e: Readonly<Record<string, unknown>> = { ...payload };
  const amount = (minor: number): string =>
    options.currency === undefined ? formatAmount(minor) : formatMoney(minor, options.currency);
  // Another player's bet comes as a stake on a spot, without its player (docs/api.md).
  const bet = e['bet'] as { spot: string; stakeMinor: number; playerId?: string } | undefined;
  if (bet !== undefined) {
    const stake = `${spotNameById(bet.spot, lang())} ${amount(bet.stakeMinor)}`;
    if (bet.playerId === undefined) return stake;
    if (options.nameOf === undefined) return `${stake} (${bet.playerId})`;
    const name = options.nameOf(bet.playerId);
    return name === undefined ? stake : `${stake} · ${name}`;
  }
  if (Array.isArray(e['dice'])) return (e['dice'] as number[]).join('-');
  if (typeof e['reason'] === 'string')
    return t(`croupier.void.${e['reason'] as 'stacked' | 'tilted'}`);
  if (typeof e['pullNo'] === 'number') return `${e['pullNo']}/3`;
  if (typeof e['totalReturnedMinor'] === 'number') return amount(e['totalReturnedMinor']);
  if (typeof e['totalStakeMinor'] === 'number') return amount(e['totalStakeMinor']);
  // Staff actions (accounts, tables): whom it concerned and who did it.
  const by = e['by'] ?? e['createdBy'] ?? e['changedBy'];
  if (typeof by === 'string') {
    const whom = e['username'] ?? e['userId'];
    return typeof whom === 'string' ? `${whom} ← ${by}` : `← ${by}`;
  }
  return '';
}
