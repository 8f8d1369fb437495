/**
 * What a screen reader hears of the game: a polite live region that says each
 * moment of the round in the page's language (betting open, no more bets, the
 * dice and total, a void roll, the player's own result) and of the player's
 * own actions (a bet placed), then empties, so that it is never left holding a
 * stale sentence for someone who reads the page later.
 */
import type { RoundEvent, Triple } from '../api/types.js';
import { art, lang, t } from '../i18n/i18n.js';
import { spotNameById } from '../i18n/spot-names.js';
import { bigSmallOf, oddEvenOf } from '../logic/roadmap.js';
import { h } from './dom.js';

/** How long a sentence stays in the region once said. */
const KEEP_MS = 7_000;

export class Announcer {
  readonly el = h('div', {
    class: 'sr-only announcer',
    role: 'status',
    'aria-live': 'polite',
    'aria-atomic': 'true',
  });
  private timer: number | undefined;

  say(text: string): void {
    window.clearTimeout(this.timer);
    // The same sentence twice (two equal bets) is said twice: the region changes in between.
    if (this.el.textContent === text) this.el.textContent = '';
    window.setTimeout(() => {
      this.el.textContent = text;
      this.timer = window.setTimeout(() => (this.el.textContent = ''), KEEP_MS);
    }, 0);
  }

  stop(): void {
    window.clearTimeout(this.timer);
  }
}

/** "2, 2, 5: total 9, Small, Odd" — a triple says so instead of Small or Big (Art. 7). */
export function diceSentence(dice: Triple): string {
  const bs = bigSmallOf(dice);
  const oe = oddEvenOf(dice);
  return t('say.dice', {
    dice: dice.join(', '),
    total: dice[0] + dice[1] + dice[2],
    bigSmall: bs === 'triple' ? t('say.triple') : spotNameById(bs, lang()),
    oddEven: spotNameById(oe, lang()),
  });
}

/** The sentence for a moment of the round, or null for one that is not announced. */
export function eventSentence(event: RoundEvent, bettingSeconds: number | null): string | null {
  switch (event.type) {
    case 'betting-opened':
      // Art. 2.1 (and 2.3: the croupier may also announce it aloud).
      return bettingSeconds === null
        ? t('say.bettingOpen')
        : t('say.bettingOpenFor', { s: bettingSeconds });
    case 'bell-rung':
      return `${t('say.noMoreBets')} (${art('3.1')})`;
    case 'dice-revealed':
    case 'dice-read':
      return diceSentence(event.dice);
    case 'roll-voided':
      return t('player.voidNotice');
    default:
      return null;
  }
}
