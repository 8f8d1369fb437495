/**
 * An amount in words, as a cage's receipt writes it beside the figures, in the
 * page's language and the house currency: Chinese financial numerals as a
 * Macau cage prints them (澳門幣壹萬貳仟元正), Portuguese as written in Macau
 * (dez mil patacas, with the feminine of pataca) and English (ten thousand
 * patacas). Minor units are hundredths: avos for MOP, cents for HKD.
 */
import type { Entry } from '../i18n/dict.js';

/** The page's languages (a dictionary entry's keys). */
type Lang = keyof Entry;

interface Units {
  readonly zh: string;
  readonly pt: readonly [one: string, many: string, feminine: boolean];
  readonly ptMinor: readonly [string, string];
  readonly en: readonly [string, string];
  readonly enMinor: readonly [string, string];
}

const CURRENCIES: Readonly<Record<string, Units>> = {
  MOP: {
    zh: '澳門幣',
    pt: ['pataca', 'patacas', true],
    ptMinor: ['avo', 'avos'],
    en: ['pataca', 'patacas'],
    enMinor: ['avo', 'avos'],
  },
  HKD: {
    zh: '港幣',
    pt: ['dólar de Hong Kong', 'dólares de Hong Kong', false],
    ptMinor: ['cêntimo', 'cêntimos'],
    en: ['Hong Kong dollar', 'Hong Kong dollars'],
    enMinor: ['cent', 'cents'],
  },
};

export function amountInWords(minor: number, currency: string, lang: Lang): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount: ${minor}`);
  const units = CURRENCIES[currency];
  if (units === undefined) throw new RangeError(`no words for the currency ${currency}`);
  const major = Math.floor(minor / 100);
  const cents = minor % 100;
  if (lang === 'zh-Hant') return chinese(major, cents, units);
  if (lang === 'pt') return portuguese(major, cents, units);
  return english(major, cents, units);
}

// ---- Chinese financial numerals (大寫) ----

const ZH_DIGITS = ['零', '壹', '貳', '參', '肆', '伍', '陸', '柒', '捌', '玖'];
const ZH_PLACES = ['', '拾', '佰', '仟'];
const ZH_GROUPS = ['', '萬', '億', '兆'];

/** 0–9999 with a leading 零 where the group follows a larger one and starts below 1000. */
function zhGroup(n: number): string {
  let text = '';
  let zero = false;
  for (let place = 3; place >= 0; place--) {
    const digit = Math.floor(n / 10 ** place) % 10;
    if (digit === 0) {
      zero = text !== '';
      continue;
    }
    if (zero) text += '零';
    zero = false;
    text += ZH_DIGITS[digit]! + ZH_PLACES[place]!;
  }
  return text;
}

export function chineseNumber(n: number): string {
  if (n === 0) return ZH_DIGITS[0]!;
  const groups: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 10_000)) groups.push(rest % 10_000);
  let text = '';
  for (let i = groups.length - 1; i >= 0; i--) {
    const group = groups[i]!;
    if (group === 0) continue;
    // A gap before this group (a group of zero, or fewer than four digits) is read as one 零.
    const gap = text !== '' && (groups[i + 1] === 0 || group < 1000);
    text += (gap && !text.endsWith('零') ? '零' : '') + zhGroup(group) + ZH_GROUPS[i]!;
  }
  return text;
}

function chinese(major: number, cents: number, units: Units): string {
  const jiao = Math.floor(cents / 10);
  const fen = cents % 10;
  let text = `${units.zh}${chineseNumber(major)}元`;
  if (cents === 0) return `${text}正`;
  text += jiao === 0 ? '零' : `${ZH_DIGITS[jiao]}角`;
  return fen === 0 ? `${text}正` : `${text}${ZH_DIGITS[fen]}分`;
}

// ---- Portuguese (as written in Macau and Portugal) ----

const PT_UNITS = [
  'zero',
  'um',
  'dois',
  'três',
  'quatro',
  'cinco',
  'seis',
  'sete',
  'oito',
  'nove',
  'dez',
  'onze',
  'doze',
  'treze',
  'catorze',
  'quinze',
  'dezasseis',
  'dezassete',
  'dezoito',
  'dezanove',
];
const PT_TENS = [
  '',
  '',
  'vinte',
  'trinta',
  'quarenta',
  'cinquenta',
  'sessenta',
  'setenta',
  'oitenta',
  'noventa',
];
const PT_HUNDREDS = [
  '',
  'cento',
  'duzentos',
  'trezentos',
  'quatrocentos',
  'quinhentos',
  'seiscentos',
  'setecentos',
  'oitocentos',
  'novecentos',
];

function ptBelow1000(n: number, feminine: boolean): string {
  const female = (word: string): string =>
    !feminine ? word : word === 'um' ? 'uma' : word === 'dois' ? 'duas' : word.replace(/os$/, 'as');
  if (n === 100) return 'cem';
  const parts: string[] = [];
  const h = Math.floor(n / 100);
  const rest = n % 100;
  if (h > 0) parts.push(female(PT_HUNDREDS[h]!));
  if (rest >= 20) {
    parts.push(PT_TENS[Math.floor(rest / 10)]!);
    if (rest % 10 > 0) parts.push(female(PT_UNITS[rest % 10]!));
  } else if (rest > 0) parts.push(female(PT_UNITS[rest]!));
  return parts.join(' e ');
}

export function portugueseNumber(n: number, feminine = false): string {
  if (n === 0) return 'zero';
  const scales: readonly (readonly [number, string, string])[] = [
    [1e12, 'bilião', 'biliões'],
    [1e6, 'milhão', 'milhões'],
    [1e3, 'mil', 'mil'],
  ];
  const parts: string[] = [];
  let rest = n;
  for (const [size, one, many] of scales) {
    const count = Math.floor(rest / size);
    rest %= size;
    if (count === 0) continue;
    if (size === 1e3) parts.push(count === 1 ? 'mil' : `${ptBelow1000(count, feminine)} mil`);
    else parts.push(`${ptBelow1000(count, false)} ${count === 1 ? one : many}`);
  }
  if (rest > 0) parts.push(ptBelow1000(rest, feminine));
  // The last part takes "e" when it is below a hundred or a round hundred (mil e quinhentas).
  if (parts.length > 1 && rest > 0 && (rest < 100 || rest % 100 === 0)) {
    const last = parts.pop()!;
    return `${parts.join(' ')} e ${last}`;
  }
  return parts.join(' ');
}

function portuguese(major: number, cents: number, units: Units): string {
  const [one, many, feminine] = units.pt;
  // "um milhão de patacas": a round million takes "de".
  const of = major >= 1e6 && major % 1e6 === 0 ? 'de ' : '';
  const main = `${portugueseNumber(major, feminine)} ${of}${major === 1 ? one : many}`;
  if (cents === 0) return main;
  const [minorOne, minorMany] = units.ptMinor;
  const small = `${portugueseNumber(cents)} ${cents === 1 ? minorOne : minorMany}`;
  return major === 0 ? small : `${main} e ${small}`;
}

// ---- English ----

const EN_UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const EN_TENS = [
  '',
  '',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
];

function enBelow1000(n: number): string {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  const tail =
    rest === 0
      ? ''
      : rest < 20
        ? EN_UNITS[rest]!
        : `${EN_TENS[Math.floor(rest / 10)]}${rest % 10 === 0 ? '' : `-${EN_UNITS[rest % 10]}`}`;
  if (h === 0) return tail;
  return tail === '' ? `${EN_UNITS[h]} hundred` : `${EN_UNITS[h]} hundred and ${tail}`;
}

export function englishNumber(n: number): string {
  if (n === 0) return 'zero';
  const scales: readonly (readonly [number, string])[] = [
    [1e12, 'trillion'],
    [1e9, 'billion'],
    [1e6, 'million'],
    [1e3, 'thousand'],
  ];
  const parts: string[] = [];
  let rest = n;
  for (const [size, name] of scales) {
    const count = Math.floor(rest / size);
    rest %= size;
    if (count > 0) parts.push(`${enBelow1000(count)} ${name}`);
  }
  if (rest > 0)
    parts.push(parts.length > 0 && rest < 100 ? `and ${enBelow1000(rest)}` : enBelow1000(rest));
  return parts.join(' ');
}

function english(major: number, cents: number, units: Units): string {
  const [one, many] = units.en;
  const main = `${englishNumber(major)} ${major === 1 ? one : many}`;
  if (cents === 0) return main;
  const [minorOne, minorMany] = units.enMinor;
  const small = `${englishNumber(cents)} ${cents === 1 ? minorOne : minorMany}`;
  return major === 0 ? small : `${main} and ${small}`;
}
