/**
 * The few special functions the fairness statistics need: log-gamma, the
 * regularized incomplete gamma functions (hence chi-square tails), erfc (hence
 * normal tails) and the noncentral chi-square tail for power estimates.
 *
 * Pure numerics, no I/O. The algorithms are the classic ones of Numerical
 * Recipes (3rd ed., §6.1–6.2): Lanczos for ln Γ, a power series below a + 1 and
 * a Lentz continued fraction above it. Relative accuracy is about 1e-14 for the
 * shape parameters used here (a ≤ 108, i.e. up to 215 degrees of freedom).
 */

// Lanczos coefficients (g = 671/128, n = 14) from Numerical Recipes, 3rd ed., §6.1.
const LANCZOS = [
  57.15623566586292, -59.59796035547549, 14.136097974741746, -0.4919138160976202,
  3.399464998481189e-5, 4.652362892704858e-5, -9.837447530487956e-5, 0.0001580887032249125,
  -0.00021026444172410488, 0.00021743961811521265, -0.0001643181065367639, 8.441822398385275e-5,
  -2.6190838401581408e-5, 3.6899182659531625e-6,
] as const;

const EPS = 1e-16;
const FPMIN = Number.MIN_VALUE / EPS;
// Series and fraction converge in O(sqrt(a)) terms; this bound is far above what a ≤ 1e6 needs.
const ITERATIONS_MAX = 100_000;

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  let y = x;
  let series = 0.9999999999999971;
  for (const c of LANCZOS) series += c / ++y;
  const t = x + 5.2421875;
  return (x + 0.5) * Math.log(t) - t + Math.log((2.5066282746310007 * series) / x);
}

/** e^-x x^a / Γ(a), the factor both expansions share, computed in logs to avoid overflow. */
function gammaPrefactor(a: number, x: number): number {
  return Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** P(a, x) by its power series; converges quickly for x < a + 1. */
function lowerSeries(a: number, x: number): number {
  let ap = a;
  let term = 1 / a;
  let sum = term;
  for (let i = 0; i < ITERATIONS_MAX; i++) {
    ap += 1;
    term *= x / ap;
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) return sum * gammaPrefactor(a, x);
  }
  throw new Error(`incomplete gamma series did not converge (a=${a}, x=${x})`);
}

/** Q(a, x) by its continued fraction (modified Lentz); converges quickly for x > a + 1. */
function upperFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < ITERATIONS_MAX; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) return h * gammaPrefactor(a, x);
  }
  throw new Error(`incomplete gamma fraction did not converge (a=${a}, x=${x})`);
}

function checkGammaArgs(a: number, x: number): void {
  if (!(a > 0) || !(x >= 0))
    throw new RangeError(`incomplete gamma needs a > 0, x >= 0 (a=${a}, x=${x})`);
}

/** The regularized lower incomplete gamma function P(a, x) = γ(a, x) / Γ(a). */
export function gammaP(a: number, x: number): number {
  checkGammaArgs(a, x);
  if (x === 0) return 0;
  return x < a + 1 ? lowerSeries(a, x) : 1 - upperFraction(a, x);
}

/** The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a) = 1 − P(a, x). */
export function gammaQ(a: number, x: number): number {
  checkGammaArgs(a, x);
  if (x === 0) return 1;
  if (x === Infinity) return 0;
  return x < a + 1 ? 1 - lowerSeries(a, x) : upperFraction(a, x);
}

/** The complementary error function, erfc(x) = Q(1/2, x²) for x ≥ 0. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const q = gammaQ(0.5, x * x);
  return x >= 0 ? q : 2 - q;
}

/** P(Z > z) for a standard normal Z. */
export function normalSurvival(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** P(χ²(df) > x): the p-value of a chi-square statistic. */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  return x <= 0 ? 1 : gammaQ(df / 2, x / 2);
}

/**
 * The x with P(χ²(df) > x) = alpha: the critical value at significance alpha.
 * Bisection: slow by numerics standards (about 100 tail evaluations) but
 * simple and certain, and it runs once per question, not per roll.
 */
export function chiSquareCriticalValue(alpha: number, df: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  let low = 0;
  let high = df + 10 * Math.sqrt(2 * df) + 100;
  while (chiSquareSurvival(high, df) > alpha) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2;
    if (chiSquareSurvival(mid, df) > alpha) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/**
 * P(χ'²(df, λ) > x) for the noncentral chi-square: a Poisson(λ/2) mixture of
 * central chi-square tails with df + 2j degrees of freedom. Summed from the
 * Poisson mode outwards until the remaining weight is negligible, so large λ
 * costs O(sqrt(λ)) terms and nothing underflows.
 */
export function noncentralChiSquareSurvival(x: number, df: number, lambda: number): number {
  if (!(lambda >= 0)) throw new RangeError(`noncentrality must be >= 0, got ${lambda}`);
  if (lambda === 0) return chiSquareSurvival(x, df);
  const mean = lambda / 2;
  const mode = Math.floor(mean);
  const weightAt = (j: number): number => Math.exp(-mean + j * Math.log(mean) - logGamma(j + 1));
  let sum = 0;
  let weightSeen = 0;
  for (let j = mode; j >= 0; j--) {
    const w = weightAt(j);
    sum += w * chiSquareSurvival(x, df + 2 * j);
    weightSeen += w;
    if (w < 1e-17 * weightSeen) break;
  }
  for (let j = mode + 1; 1 - weightSeen > 1e-15 && j < mode + ITERATIONS_MAX; j++) {
    const w = weightAt(j);
    sum += w * chiSquareSurvival(x, df + 2 * j);
    weightSeen += w;
    if (w < 1e-17 * weightSeen && j > mean) break;
  }
  return Math.min(1, sum);
}
