/**
 * Who sees what of a table's events and journal: one filter by role, used by
 * the socket, GET /tables/:id/events and every other read of the journal that
 * is not the inspector's whole journal.
 *
 * - Bets: another player's bet is a stake on a spot, never a player's (no
 *   playerId); its betId stays, so that anyone can follow a withdrawal and
 *   align the settlement's returns with the bets. A player sees their own
 *   bets in full. The supervisor
 *   and the inspector, who answer for the players' money and for audits, see
 *   every bet in full; the croupier, who runs the procedure, and the cashier
 *   see stakes by spot like the public.
 * - Entries: the round's events and the table's public settings (its
 *   creation, limits, the house options in force) are for everyone; every
 *   other entry of a table (fairness alerts, Art. 8 proposals and
 *   authorizations, dice changes, and any type added later) is for the staff
 *   at the table (croupier, supervisor, inspector) only.
 *
 * A cut entry keeps its seq, type and hash: its payload no longer hashes to
 * it, so the chain is verified from the whole journal (the inspector's
 * GET /journal/verify), not from a filtered read.
 */
import { isRoundEventEntry, type JournalEntry, typedRecord } from '../journal/index.js';
import type { Role, User } from '../ledger/index.js';
import { EVENT_TYPES, type PublicBet, type RoundEvent } from '../table/index.js';

/** Who is looking: a user, or undefined for an anonymous watcher. */
export type Viewer = Pick<User, 'id' | 'role'> | undefined;

/** A bet as someone who may not know whose it is sees it. */
export type SpotStake = Omit<PublicBet, 'playerId'>;

const SEES_PLAYERS: ReadonlySet<Role> = new Set(['supervisor', 'inspector']);
const TABLE_STAFF: ReadonlySet<Role> = new Set(['croupier', 'supervisor', 'inspector']);
const PUBLIC_ENTRY_TYPES: ReadonlySet<string> = new Set([
  ...EVENT_TYPES,
  'table-created',
  'table-settings-changed',
  'house-options-adopted',
]);

/** Whether the viewer sees every bet with its player. */
export const seesPlayers = (viewer: Viewer): boolean =>
  viewer !== undefined && SEES_PLAYERS.has(viewer.role);

/** Whether the viewer sees a table's staff-only entries. */
export const isTableStaff = (viewer: Viewer): boolean =>
  viewer !== undefined && TABLE_STAFF.has(viewer.role);

/** A bet as the viewer may see it: whole when it is theirs or they see players, else its spot and stake. */
export function visibleBet(bet: PublicBet, viewer: Viewer): PublicBet | SpotStake {
  if (seesPlayers(viewer) || (viewer !== undefined && bet.playerId === viewer.id)) return bet;
  const { playerId: _player, ...stake } = bet;
  return stake;
}

/** A round event as the viewer may see it. */
export function visibleEvent(event: RoundEvent, viewer: Viewer): RoundEvent {
  switch (event.type) {
    case 'bet-placed':
    case 'bet-withdrawn':
      return { ...event, bet: visibleBet(event.bet, viewer) as PublicBet };
    case 'betting-opened':
      return {
        ...event,
        standingBets: event.standingBets.map((b) => visibleBet(b, viewer) as PublicBet),
      };
    default:
      return event;
  }
}

/** A journal entry of a table as the viewer may see it, or null when it is not for them. */
export function visibleEntry(entry: JournalEntry, viewer: Viewer): JournalEntry | null {
  if (!PUBLIC_ENTRY_TYPES.has(entry.type)) return isTableStaff(viewer) ? entry : null;
  if (seesPlayers(viewer) || !isRoundEventEntry(entry)) return entry;
  const { type: _type, payload, ...header } = entry;
  return { ...header, ...typedRecord(visibleEvent(payload, viewer)) };
}

export function visibleEntries(entries: readonly JournalEntry[], viewer: Viewer): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const entry of entries) {
    const seen = visibleEntry(entry, viewer);
    if (seen !== null) out.push(seen);
  }
  return out;
}
