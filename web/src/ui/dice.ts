/**
 * Dice drawn as SVG: an ivory cube face with pips, red ones for 1 and 4 as on
 * Chinese dice. The label is for screen readers; decorative dice are hidden.
 */
import { svg } from './dom.js';

// Pip positions on a 3×3 grid (0..2) for each face.
const PIPS: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  1: [[1, 1]],
  2: [
    [0, 0],
    [2, 2],
  ],
  3: [
    [0, 0],
    [1, 1],
    [2, 2],
  ],
  4: [
    [0, 0],
    [2, 0],
    [0, 2],
    [2, 2],
  ],
  5: [
    [0, 0],
    [2, 0],
    [1, 1],
    [0, 2],
    [2, 2],
  ],
  6: [
    [0, 0],
    [2, 0],
    [0, 1],
    [2, 1],
    [0, 2],
    [2, 2],
  ],
};

export function die(
  face: number,
  options: { label?: string; className?: string } = {},
): SVGElement {
  const red = face === 1 || face === 4;
  const radius = face === 1 ? 11 : 8;
  const pips = (PIPS[face] ?? []).map(([c, r]) =>
    svg('circle', {
      cx: 22 + c * 28,
      cy: 22 + r * 28,
      r: radius,
      class: red ? 'pip pip-red' : 'pip',
    }),
  );
  const el = svg(
    'svg',
    { viewBox: '0 0 100 100', class: `die ${options.className ?? ''}`.trim() },
    svg('rect', { x: 3, y: 3, width: 94, height: 94, rx: 18, class: 'die-face' }),
    ...pips,
  );
  if (options.label === undefined) {
    el.setAttribute('aria-hidden', 'true');
  } else {
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', options.label);
  }
  el.setAttribute('focusable', 'false');
  return el;
}

/** Several dice side by side in a span, decorative. */
export function diceRow(faces: readonly number[], className = 'dice-row'): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = className;
  span.setAttribute('aria-hidden', 'true');
  for (const f of faces) span.appendChild(die(f));
  return span;
}
