/**
 * Spot names come from src/rules (Art. 5), the single source the server, the
 * command line and the journal use. The official Portuguese name is always
 * offered as well (tooltip or second line), as the regulation's text governs.
 */
import { type Spot, spotById } from '../../../src/rules/index.js';
import type { Lang } from './i18n.js';

export function spotName(spot: Spot, lang: Lang): string {
  return lang === 'zh-Hant' ? spot.names.zh : spot.names[lang];
}

/** The spot's name for an id the server sent; the id itself if it is unknown. */
export function spotNameById(id: string, lang: Lang): string {
  const spot = spotById(id);
  return spot === undefined ? id : spotName(spot, lang);
}

/** The regulation's Portuguese name, e.g. "Tripla especificado 4". */
export function officialName(spot: Spot): string {
  return spot.names.pt;
}
