/**
 * `#/password`: change one's own password. A user whose password somebody else
 * chose (a new account, a reset, the first supervisor) is sent here after
 * signing in and cannot leave until it is changed: the server refuses
 * everything else meanwhile (`password_change_required`).
 */
import { changePassword } from '../api/endpoints.js';
import type { Me } from '../api/types.js';
import { go, homeRoute, loadSession } from '../app/session.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { h, replaceChildren } from '../ui/dom.js';
import { shell } from '../ui/shell.js';
import { toast, toastError } from '../ui/status.js';
import type { Page } from './page.js';

export function passwordPage(me: Me): Page {
  const main = h('main', { class: 'page page-login' });
  const el = shell({ me, tableId: null, active: '' }, main);
  const card = h('div', { class: 'login-card' });
  main.appendChild(card);
  const render = (): void => {
    const input = (id: string, autocomplete: string): HTMLInputElement =>
      h('input', { id, type: 'password', autocomplete, required: true, 'data-focus': id });
    const current = input('pass-current', 'current-password');
    const next = input('pass-new', 'new-password');
    const again = input('pass-again', 'new-password');
    const submit = async (e: Event): Promise<void> => {
      e.preventDefault();
      if (next.value !== again.value) {
        toast(t('password.mismatch'), 'error');
        return;
      }
      try {
        await changePassword(current.value, next.value);
        toast(t('password.done'), 'ok');
        const fresh = await loadSession();
        if (fresh !== null) go(homeRoute(fresh.user.role, null));
      } catch (error) {
        toastError(error);
      }
    };
    replaceChildren(
      card,
      h('h1', { class: 'login-title' }, t('password.title')),
      me.user.mustChangePassword === true
        ? h('p', { class: 'notice-required', role: 'alert' }, t('password.required'))
        : null,
      h(
        'form',
        { class: 'form', onsubmit: (e) => void submit(e) },
        h('label', { for: 'pass-current' }, t('password.current')),
        current,
        h('label', { for: 'pass-new' }, t('password.new')),
        next,
        h('label', { for: 'pass-again' }, t('password.repeat')),
        again,
        h('p', { class: 'small muted' }, t('password.rule')),
        h(
          'button',
          { type: 'submit', class: 'btn btn-gold btn-wide', 'data-focus': 'change-password' },
          t('password.submit'),
        ),
      ),
    );
  };
  render();
  return { el, destroy: onLanguage(render) };
}
