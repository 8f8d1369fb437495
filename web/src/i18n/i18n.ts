/**
 * The current language, its persistence in localStorage and `t()`. Pages
 * re-render when the language changes (they subscribe with `onLanguage`).
 */
import { DICT, type Key } from './dict.js';

export type Lang = 'zh-Hant' | 'pt' | 'en';
export const LANGS: readonly Lang[] = ['zh-Hant', 'pt', 'en'];
export const LANG_LABELS: Readonly<Record<Lang, string>> = {
  'zh-Hant': '繁體中文',
  pt: 'Português',
  en: 'English',
};
export const LANG_SHORT: Readonly<Record<Lang, string>> = { 'zh-Hant': '繁', pt: 'PT', en: 'EN' };

const STORAGE_KEY = 'cussec.lang';

export type Params = Readonly<Record<string, string | number>>;

/** Replaces each {name} in `text` with its parameter; unknown names stay visible. */
export function fill(text: string, params: Params = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function translate(lang: Lang, key: Key, params?: Params): string {
  return fill(DICT[key][lang], params);
}

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/** The stored choice, else the browser's language, else English. */
export function initialLang(stored: string | null, browser: readonly string[]): Lang {
  if (isLang(stored)) return stored;
  for (const tag of browser) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-Hant';
    if (lower.startsWith('pt')) return 'pt';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

function readStored(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null; // Storage can be disabled (private mode); the choice then lasts the page.
  }
}

let current: Lang = initialLang(
  readStored(),
  typeof navigator === 'undefined' ? [] : navigator.languages,
);
const listeners = new Set<() => void>();

export const lang = (): Lang => current;

export function setLang(next: Lang): void {
  if (next === current) return;
  current = next;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
  } catch {
    // Not persisted; see readStored.
  }
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

/** Calls `listener` after every language change; returns the unsubscribe. */
export function onLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const t = (key: Key, params?: Params): string => translate(current, key, params);

/** "Art. 3.4" in the current language; an article reference shown next to a rule. */
export const art = (article: string): string => t('app.article', { a: article });
