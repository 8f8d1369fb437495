/** One function per endpoint of docs/api.md that the app calls. */
import { api, get } from './http.js';
import type {
  BetAnswer,
  CageMove,
  CageMoveAnswer,
  Eligibility,
  ExclusionFileAnswer,
  ExclusionFileFormat,
  ExclusionOrder,
  FlagDecision,
  FlagStatus,
  Identity,
  IdentityInput,
  IdentityOf,
  IdentityRead,
  LargeTransaction,
  SuspicionFlag,
  WorkerCause,
  WorkerCauseBody,
  CalendarYear,
  CommandAnswer,
  CroupierCommand,
  Decision,
  Exposure,
  Fairness,
  Floor,
  FloorSettingsChange,
  FloorSettingsState,
  HouseOptionsState,
  JournalEntry,
  JournalVerify,
  Me,
  MyBets,
  PlayerRow,
  RecalledRound,
  SessionAnswer,
  SessionInfo,
  StaffAction,
  TableSummary,
  TableView,
  User,
} from './types.js';

const table = (id: string): string => `/tables/${encodeURIComponent(id)}`;

export const login = (username: string, password: string): Promise<SessionAnswer> =>
  api('POST', '/session', { body: { username, password } });
export const logout = (): Promise<void> => api('DELETE', '/session');
export const me = (): Promise<Me> => get('/me');

export const tables = (): Promise<TableSummary[]> => get('/tables');
export const tableView = (id: string): Promise<TableView> => get(table(id));
export const myBets = (id: string): Promise<MyBets> => get(`${table(id)}/my-bets`);

export const placeBet = (id: string, betId: string, spot: string, stakeMinor: number) =>
  api<BetAnswer>('POST', `${table(id)}/bets`, {
    body: { betId, spot, stakeMinor },
    idempotent: true,
  });
export const withdrawBet = (id: string, betId: string) =>
  api<BetAnswer>('DELETE', `${table(id)}/bets/${encodeURIComponent(betId)}`, {
    idempotent: true,
  });

export const command = (id: string, cmd: CroupierCommand) =>
  api<CommandAnswer>('POST', `${table(id)}/commands`, {
    body: cmd,
    idempotent: true,
  });
/** The table's journal entries after `after` (docs/api.md); each entry's payload is a round event. */
export const tableEvents = (id: string, after: number, limit: number): Promise<JournalEntry[]> =>
  get(`${table(id)}/events?after=${after}&limit=${limit}`);
export const exposure = (id: string): Promise<Exposure> => get(`${table(id)}/exposure`);
export const recall = (id: string, rounds: number): Promise<RecalledRound[]> =>
  get(`${table(id)}/recall?rounds=${rounds}`);
export const fairness = (id: string): Promise<Fairness> => get(`${table(id)}/fairness`);

export const players = (): Promise<PlayerRow[]> => get('/players');
/**
 * A deposit or withdrawal. `documentSighted`: the cashier saw the player's
 * document, which a large amount needs (Instrução 1/2016).
 */
export const deposit = (playerId: string, amountMinor: number, documentSighted = false) =>
  api<CageMoveAnswer>('POST', `/players/${encodeURIComponent(playerId)}/deposits`, {
    body: { amountMinor, ...(documentSighted ? { documentSighted } : {}) },
    idempotent: true,
  });
export const withdraw = (playerId: string, amountMinor: number, documentSighted = false) =>
  api<CageMoveAnswer>('POST', `/players/${encodeURIComponent(playerId)}/withdrawals`, {
    body: { amountMinor, ...(documentSighted ? { documentSighted } : {}) },
    idempotent: true,
  });

export const staffActions = (limit: number): Promise<StaffAction[]> =>
  get(`/staff-actions?limit=${limit}`);
export const journal = (after: number, limit: number): Promise<JournalEntry[]> =>
  get(`/journal?after=${after}&limit=${limit}`);
export const verifyJournal = (): Promise<JournalVerify> => get('/journal/verify');

export const changePassword = (currentPassword: string, newPassword: string) =>
  api<SessionAnswer>('POST', '/me/password', { body: { currentPassword, newPassword } });

export const floor = (): Promise<Floor> => get('/floor');
export const createTable = (settings: Record<string, unknown>) =>
  api<TableView>('POST', '/tables', { body: settings, idempotent: true });
export const changeLimits = (id: string, limits: Record<string, number | null>) =>
  api<TableView>('PATCH', `${table(id)}/limits`, { body: limits, idempotent: true });
export const setTableOpen = (id: string, open: boolean) =>
  api<TableView>('POST', `${table(id)}/${open ? 'open' : 'close'}`, { idempotent: true });

export const users = (): Promise<User[]> => get('/users');
const user = (id: string): string => `/users/${encodeURIComponent(id)}`;
export const createUser = (body: {
  username: string;
  password: string;
  role: string;
  displayName?: string;
}) => api<User>('POST', '/users', { body });
export const setDisabled = (id: string, disabled: boolean) =>
  api<User>('PATCH', user(id), { body: { disabled } });
export const resetPassword = (id: string, password: string) =>
  api<User>('POST', `${user(id)}/password`, { body: { password } });
export const userSessions = (id: string): Promise<SessionInfo[]> => get(`${user(id)}/sessions`);
export const revokeSession = (id: string, sessionId: string) =>
  api<void>('DELETE', `${user(id)}/sessions/${sessionId}`);

export const houseOptions = (id: string): Promise<HouseOptionsState> =>
  get(`${table(id)}/house-options`);
export const propose = (
  id: string,
  body: { proposalId: string; options: Record<string, unknown>; adoptionDate: string },
) => api<Decision>('POST', `${table(id)}/house-options/proposals`, { body });
export const authorize = (
  id: string,
  proposalId: string,
  body: { reference: string; authorizedOn: string },
) =>
  api<Decision>(
    'POST',
    `${table(id)}/house-options/proposals/${encodeURIComponent(proposalId)}/authorization`,
    { body },
  );
export const withdrawProposal = (id: string, proposalId: string) =>
  api<Decision>(
    'POST',
    `${table(id)}/house-options/proposals/${encodeURIComponent(proposalId)}/withdrawal`,
    { body: {} },
  );
export const floorSettings = (): Promise<FloorSettingsState> => get('/floor-settings');
export const changeFloorSettings = (change: FloorSettingsChange) =>
  api<FloorSettingsState>('PATCH', '/floor-settings', { body: change });
export const cageMoves = (playerId: string, before?: number): Promise<CageMove[]> =>
  get(
    `/players/${encodeURIComponent(playerId)}/cage-moves${before === undefined ? '' : `?before=${before}`}`,
  );

export const uploadHolidays = (list: unknown) =>
  api<CalendarYear>('POST', '/holidays', { body: list });

// Who may play (Lei 10/2012; Instrução 1/2016). Lei 8/2005: the server records
// every read of an identity by staff, so the pages read one only when it is shown.

/** The user's identity, or null; the read is recorded (who, whose, when, why). */
export const identityOf = (userId: string): Promise<IdentityOf> => get(`${user(userId)}/identity`);
export const recordIdentity = (userId: string, body: IdentityInput) =>
  api<Identity>('PUT', `${user(userId)}/identity`, { body });
export const eligibility = (playerId: string): Promise<Eligibility> =>
  get(`/players/${encodeURIComponent(playerId)}/eligibility`);
export const identityReads = (before?: number): Promise<IdentityRead[]> =>
  get(`/identity-reads?limit=200${before === undefined ? '' : `&before=${before}`}`);

export const exclusions = (after: string | undefined, limit: number): Promise<ExclusionOrder[]> =>
  get(
    `/exclusions?limit=${limit}${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`,
  );
export const recordExclusion = (order: ExclusionOrder) =>
  api<ExclusionOrder>('POST', '/exclusions', { body: order });
export const loadExclusions = (format: ExclusionFileFormat, text: string) =>
  api<ExclusionFileAnswer>('POST', '/exclusions/bulk', { body: { format, text } });
export const requestRevocation = (orderId: string, requestedOn: string) =>
  api<ExclusionOrder>('POST', `/exclusions/${encodeURIComponent(orderId)}/revocation`, {
    body: { requestedOn },
  });
export const recordWorkerCause = (body: WorkerCauseBody) =>
  api<WorkerCause>('POST', '/worker-causes', { body });

/** The large-transaction register from one Macau date to another (inclusive). */
export const largeTransactionsPath = (from: string, to: string, format: 'json' | 'csv'): string =>
  `/large-transactions?from=${from}&to=${to}&format=${format}`;
export const largeTransactions = (from: string, to: string): Promise<LargeTransaction[]> =>
  get(largeTransactionsPath(from, to, 'json'));

export const suspicionFlags = (status?: FlagStatus): Promise<SuspicionFlag[]> =>
  get(`/suspicion-flags?limit=1000${status === undefined ? '' : `&status=${status}`}`);
export const decideFlag = (flagId: string, body: FlagDecision) =>
  api<SuspicionFlag>('POST', `/suspicion-flags/${encodeURIComponent(flagId)}/decision`, { body });
/** Where a flag's report to the GIF is downloaded from (a JSON file). */
export const gifReportPath = (flagId: string): string =>
  `/suspicion-flags/${encodeURIComponent(flagId)}/gif-report`;
