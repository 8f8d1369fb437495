/**
 * Money as the API carries it: integers of minor units (avos for MOP, cents for
 * HKD; 100 to the pataca or dollar). Never a float in a sum; floats only to print.
 */
export const MINOR_PER_MAJOR = 100;

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "1,234" or "1,234.50": whole amounts without decimals, as casino displays show them. */
export function formatAmount(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minor));
  const major = Math.floor(abs / MINOR_PER_MAJOR);
  const cents = abs % MINOR_PER_MAJOR;
  const whole = group(String(major));
  return cents === 0 ? sign + whole : `${sign}${whole}.${String(cents).padStart(2, '0')}`;
}

/** "MOP 1,234" */
export const formatMoney = (minor: number, currency: string): string =>
  `${currency} ${formatAmount(minor)}`;

/** A chip's face: 10, 50, 100, 500, 1K, 5K, 10K … (major units). */
export function chipLabel(minor: number): string {
  const major = minor / MINOR_PER_MAJOR;
  if (major >= 1000 && major % 1000 === 0) return `${major / 1000}K`;
  if (major >= 1000 && major % 100 === 0) return `${major / 1000}K`;
  return Number.isInteger(major) ? String(major) : major.toFixed(2);
}

/** Reads an amount typed in major units ("12", "12.5", "1,000.25") into minor units; null if not positive. */
export function parseAmount(text: string): number | null {
  const clean = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  const minor = Number(whole) * MINOR_PER_MAJOR + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}
