import { describe, expect, it } from 'vitest';
import { nearestInDirection, type Box } from './nav.js';

const box = (x: number, y: number, w = 10, h = 10): Box => ({ x, y, w, h });

describe('arrow-key movement on the layout', () => {
  // A 3×2 grid of boxes, 20 apart.
  const grid = [box(0, 0), box(20, 0), box(40, 0), box(0, 20), box(20, 20), box(40, 20)];

  it('moves to the neighbour in each direction', () => {
    expect(nearestInDirection(grid[0]!, grid, 'right')).toBe(1);
    expect(nearestInDirection(grid[1]!, grid, 'down')).toBe(4);
    expect(nearestInDirection(grid[5]!, grid, 'left')).toBe(4);
    expect(nearestInDirection(grid[4]!, grid, 'up')).toBe(1);
  });

  it('stays put at the edge', () => {
    expect(nearestInDirection(grid[2]!, grid, 'right')).toBe(-1);
    expect(nearestInDirection(grid[0]!, grid, 'up')).toBe(-1);
  });

  it('moves down from a tall spot to the row below it, not to its own row', () => {
    const tall = box(0, 0, 10, 50); // spans three rows, like Small or Odd
    const beside = box(12, 30, 10, 10); // the third row of the next column
    const below = box(0, 60, 10, 10);
    expect(nearestInDirection(tall, [beside, below], 'down')).toBe(1);
  });

  it('prefers a box in line over a nearer one off to the side', () => {
    const tall = box(0, 0, 10, 50);
    const boxes = [box(30, 40), box(15, 80)];
    expect(nearestInDirection(tall, boxes, 'right')).toBe(0);
  });
});
