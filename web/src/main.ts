/**
 * The app's entry: hash routes, one page mounted at a time.
 *
 *   #/                 sign in, then the role's page (or the table chooser)
 *   #/table/:id        player layout
 *   #/croupier/:id     croupier console
 *   #/board/:id        display board beside the table
 *   #/inspector        journal, recall, paytable, fairness (#/inspector/:tableId)
 *   #/cage             cashier: players, deposits, withdrawals
 *   #/floor            supervisor (inspector reads): tables, Art. 8, holidays, accounts,
 *                      the exclusion and large-transaction registers, workers' causes
 *   #/compliance       compliance officer: suspicion flags, large transactions, exclusions
 *   #/password         change one's password (forced while the server requires it)
 */
import './styles/base.css';
import './styles/layout.css';
import './styles/pages.css';
import './styles/people.css';
import { loadSession } from './app/session.js';
import { lang, t } from './i18n/i18n.js';
import { boardPage } from './pages/board.js';
import { cagePage } from './pages/cage.js';
import { compliancePage } from './pages/compliance.js';
import { floorPage } from './pages/floor.js';
import { croupierPage } from './pages/croupier.js';
import { inspectorPage } from './pages/inspector.js';
import { loginPage } from './pages/login.js';
import { passwordPage } from './pages/password.js';
import type { Page } from './pages/page.js';
import { playerPage } from './pages/player.js';
import { h } from './ui/dom.js';
import { shell } from './ui/shell.js';
import { toastError } from './ui/status.js';
import type { Me } from './api/types.js';

const root = document.getElementById('app')!;
let mounted: Page | null = null;
let routing = 0;

type Route = (me: Me, param: string | undefined) => Page;

const ROUTES: readonly [RegExp, Route][] = [
  [/^\/table\/([^/]+)$/, (me, id) => playerPage(me, id!)],
  [/^\/croupier\/([^/]+)$/, (me, id) => croupierPage(me, id!)],
  [/^\/board\/([^/]+)$/, (me, id) => boardPage(me, id!)],
  [/^\/inspector(?:\/([^/]+))?$/, (me, id) => inspectorPage(me, id)],
  [/^\/cage$/, (me) => cagePage(me)],
  [/^\/floor$/, (me) => floorPage(me)],
  [/^\/compliance$/, (me) => compliancePage(me)],
  [/^\/password$/, (me) => passwordPage(me)],
];

function notFound(me: Me): Page {
  return {
    el: shell(
      { me, tableId: null, active: '' },
      h('main', { class: 'page' }, h('p', {}, t('app.notFound'))),
    ),
    destroy: () => undefined,
  };
}

async function route(): Promise<void> {
  const path = location.hash.replace(/^#/, '') || '/';
  const token = ++routing;
  let me: Me | null = null;
  try {
    me = await loadSession();
  } catch (error) {
    toastError(error);
  }
  if (token !== routing) return; // A later navigation won the race.
  mounted?.destroy();
  mounted = null;
  if (me?.user.mustChangePassword === true) {
    // The server refuses everything else until the password is changed.
    mounted = passwordPage(me);
  } else if (me === null || path === '/') {
    mounted = loginPage(me);
  } else {
    const match = ROUTES.map(([re, page]) => [re.exec(path), page] as const).find(
      ([m]) => m !== null,
    );
    mounted =
      match === undefined
        ? notFound(me)
        : match[1](me, match[0]?.[1] === undefined ? undefined : decodeURIComponent(match[0][1]));
  }
  root.replaceChildren(mounted.el);
}

document.documentElement.lang = lang();
window.addEventListener('hashchange', () => void route());
void route();
