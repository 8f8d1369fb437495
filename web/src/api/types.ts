/**
 * What the server answers, as the browser reads it: every type here is the
 * server's own zod schema's (`src/server/schemas.ts`, through `z.infer`), so a
 * field a page reads that the server does not send does not compile. Type-only
 * imports: no server code reaches the bundle. Add no hand-written shape here;
 * give the answer a schema on the server and derive it.
 */
import type { z } from 'zod';
import type { journalEntrySchema } from '../../../src/journal/entries.js';
import type * as schemas from '../../../src/server/schemas.js';
import type { floorSettingsChange } from '../../../src/service/floor-settings.js';

type Answer<S extends z.ZodType> = z.infer<S>;
type Item<T extends readonly unknown[]> = T[number];

/** The round's phases and events are the round machine's own (docs/table.md). */
export type { Phase, RoundEvent } from '../../../src/table/types.js';

export type User = Answer<typeof schemas.userAnswer>;
export type Role = User['role'];
export type Me = Answer<typeof schemas.meAnswer>;
export type SessionAnswer = Answer<typeof schemas.sessionAnswer>;
export type SessionInfo = Answer<typeof schemas.userSessionAnswer>;

export type TableSummary = Answer<typeof schemas.tableSummaryAnswer>;
export type TableView = Answer<typeof schemas.tableViewAnswer>;
export type LastRound = NonNullable<TableView['lastRound']>;
export type HistoryEntry = Item<TableView['history']>;
export type Triple = HistoryEntry['dice'];
export type Paytable = TableView['paytable'];
export type CommandAnswer = Answer<typeof schemas.commandAnswer>;
/** A croupier command of Arts. 2–4, e.g. `{type: 'cover'}` or `{type: 'read-dice', dice}`. */
export type CroupierCommand = Answer<typeof schemas.croupierCommandBody>;

export type BetAnswer = Answer<typeof schemas.betAnswerSchema>;
export type MyBets = Answer<typeof schemas.myBetsAnswer>;
export type Bet = Item<MyBets['bets']>;
export type Exposure = Answer<typeof schemas.exposureAnswer>;

export type PlayerRow = Answer<typeof schemas.playerBalanceAnswer>;
export type CageMoveAnswer = Answer<typeof schemas.cageMoveAnswer>;
/** A deposit or withdrawal in a player's history at the cage. */
export type CageMove = Answer<typeof schemas.cageMoveItemAnswer>;
export type FloorSettingsState = Answer<typeof schemas.floorSettingsAnswer>;
export type FloorSettingsChange = z.input<typeof floorSettingsChange>;

/** An entry of the journal (GET /journal, a table's events): its payload typed by its `type`. */
export type JournalEntry = Answer<typeof journalEntrySchema>;
export type JournalVerify = Answer<typeof schemas.auditAnswer>;
export type StaffAction = Answer<typeof schemas.staffActionAnswer>;
export type StaffPerson = NonNullable<StaffAction['by']>;
export type RecalledRound = Answer<typeof schemas.recalledRoundAnswer>;
export type Fairness = Answer<typeof schemas.fairnessAnswer>;

export type Floor = Answer<typeof schemas.floorAnswer>;
export type FloorTable = Item<Floor['tables']>;
export type HouseOptionsState = Answer<typeof schemas.houseOptionsAnswer>;
export type HouseOptionsChoice = Answer<typeof schemas.houseOptionsChoiceAnswer>;
export type Proposal = Item<HouseOptionsState['proposals']>;
export type ProposalStatus = Proposal['status'];
export type Decision = Answer<typeof schemas.decisionAnswer>;
export type CalendarYear = Answer<typeof schemas.calendarYearAnswer>;

/** What the server sends on a table's socket. */
export type ServerMessage = schemas.ServerMessage;
export type BatchResult = schemas.BatchResultAnswer;
export type StakesMessage = Answer<typeof schemas.stakesMessage>;
export type FairnessAlertMessage = Answer<typeof schemas.fairnessAlertMessage>;
export type TableHoldMessage = Answer<typeof schemas.tableHoldMessage>;
export type ApiErrorBody = Answer<typeof schemas.errorAnswer>;

// Who may play (Lei 10/2012; Instrução 1/2016; src/server/routes/people.ts).
export type Identity = Answer<typeof schemas.identityAnswer>;
export type DocumentType = Identity['documentType'];
/** The fields a cashier or supervisor enters (the server adds the rest, and checks each). */
export type IdentityInput = Omit<
  Identity,
  'userId' | 'kind' | 'version' | 'updatedAtMs' | 'updatedBy'
>;
export type IdentityOf = Answer<typeof schemas.identityOfAnswer>;
export type IdentityChange = Answer<typeof schemas.identityChangeAnswer>;
export type Eligibility = Answer<typeof schemas.eligibilityAnswer>;
export type EligibilityRefusal = NonNullable<Eligibility['refusal']>;
export type IdentityRead = Answer<typeof schemas.identityReadAnswer>;
/** An order of the exclusion register; the body of POST /exclusions has the same fields. */
export type ExclusionOrder = Answer<typeof schemas.exclusionOrderAnswer>;
export type ExclusionKind = ExclusionOrder['kind'];
export type ExclusionFileAnswer = Answer<typeof schemas.exclusionFileAnswer>;
export type ExclusionFileFormat = z.input<typeof schemas.exclusionFileBody>['format'];
/** One problem with one field of an identity or an order, as `error.issues` and bad rows name it. */
export type FieldIssue = Item<Item<ExclusionFileAnswer['bad']>['issues']>;
export type WorkerCause = Answer<typeof schemas.workerCauseAnswer>;
export type WorkerCauseBody = z.input<typeof schemas.workerCauseBody>;
export type LargeTransaction = Answer<typeof schemas.largeTransactionAnswer>;
export type SuspicionFlag = Answer<typeof schemas.flagAnswer>;
export type FlagStatus = SuspicionFlag['status'];
export type FlagDecision = z.input<typeof schemas.flagDecisionBody>;
export type GifReport = Answer<typeof schemas.gifReportAnswer>;
