/**
 * The worker of the fairness answer's power figures (fairness.ts): each is a
 * bisection over a noncentral chi-square, tens of milliseconds of arithmetic
 * that would otherwise hold the event loop. Started by a WorkerPool, never
 * imported.
 */
import { detectionPowerTable, smallestDetectableExcess } from '../compliance/index.js';
import type { PowerJob, PowerRow } from './fairness.js';
import { serveJobs } from './worker-pool.js';

serveJobs<PowerJob>((job) => {
  if (job.kind === 'table')
    return Promise.resolve(
      detectionPowerTable({ significance: job.significance, power: 0.9 }).map((f): PowerRow => ({
        excess: Number(f.excess.toFixed(6)),
        loadedDice: f.loadedDice,
        significance: f.significance,
        power: f.power,
        rolls: f.rolls,
      })),
    );
  return Promise.resolve(
    smallestDetectableExcess(job.rolls, {
      loadedDice: job.loadedDice,
      significance: job.significance,
      power: 0.9,
    }),
  );
});
