/**
 * `#/compliance`: the compliance officer's page (Instrução 1/2016). The queue
 * of suspicion flags first, each closed or reported to the GIF with a reason;
 * then the large-transaction register for a range of dates, with its CSV; and
 * the exclusion register to look people up in (entering orders is the
 * inspector's and the supervisor's). The sections are people-registers.ts and
 * people-exclusions.ts, shared with the floor and the inspector.
 */
import { tables } from '../api/endpoints.js';
import type { Me } from '../api/types.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { h, replaceChildren } from '../ui/dom.js';
import { shell } from '../ui/shell.js';
import { toastError } from '../ui/status.js';
import type { Page } from './page.js';
import { ExclusionRegister } from './people-exclusions.js';
import {
  FlagQueue,
  LargeTransactionRegister,
  NameBook,
  type RegisterContext,
} from './people-registers.js';

export function compliancePage(me: Me): Page {
  const main = h('main', { class: 'page page-compliance' });
  const el = shell({ me, tableId: null, active: 'compliance' }, main);
  let currency = '';
  const names = new NameBook(me);
  const ctx: RegisterContext = { me, currency: () => currency, names };
  const sections = [
    new FlagQueue(ctx, me.user.role === 'compliance'),
    new LargeTransactionRegister(ctx),
    new ExclusionRegister(false),
  ];
  const title = h('h1', { class: 'table-name' }, t('compliance.title'));
  replaceChildren(
    main,
    h('div', { class: 'table-bar' }, title),
    h(
      'div',
      { class: 'registers' },
      sections.map((s) => s.el),
    ),
  );
  const render = (): void => {
    title.textContent = t('compliance.title');
    for (const s of sections) s.render();
  };
  void (async () => {
    try {
      currency = (await tables())[0]?.currency ?? '';
      await names.load();
      render();
    } catch (error) {
      toastError(error);
    }
  })();
  const off = onLanguage(render);
  return { el, destroy: off };
}
